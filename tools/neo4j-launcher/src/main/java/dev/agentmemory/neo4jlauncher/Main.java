/*
 * Test-only launcher: starts an embedded Neo4j Community database with a Bolt connector on a
 * loopback address, prints "READY bolt://host:port" once Bolt clients can connect, and shuts the
 * database down cleanly on SIGTERM or SIGINT.
 *
 * Options (all "--key value"; a bare "--key" means true):
 *   --home DIR         database folder (default target/neo4j-home); deleted first unless --keep
 *   --host HOST        Bolt listen host (default 127.0.0.1)
 *   --port PORT        Bolt listen port (default 7687)
 *   --pagecache SIZE   page cache size (default 64m)
 *   --password PW      turn authentication on and give user neo4j this password (at least 8
 *                      characters); env NEO4J_LAUNCHER_PASSWORD works too. Absent: auth off.
 *   --keep             reuse an existing store in --home
 */
package dev.agentmemory.neo4jlauncher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.QueryExecutionException;

public final class Main {
    private static final int MIN_PASSWORD_LENGTH = 8;

    private Main() {}

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // Neo4j starts non-daemon threads: exit explicitly so a failed start never hangs.
            e.printStackTrace();
            System.err.println("neo4j-launcher: start failed: " + e);
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        Path home = Path.of(opts.getOrDefault("home", "target/neo4j-home")).toAbsolutePath();
        String host = opts.getOrDefault("host", "127.0.0.1");
        int port = Integer.parseInt(opts.getOrDefault("port", "7687"));
        String pagecache = opts.getOrDefault("pagecache", "64m");
        String password = opts.get("password");
        if (password == null) {
            password = System.getenv("NEO4J_LAUNCHER_PASSWORD");
        }
        if (password != null && password.length() < MIN_PASSWORD_LENGTH) {
            fail("the password must be at least " + MIN_PASSWORD_LENGTH + " characters long");
        }
        boolean keep = Boolean.parseBoolean(opts.getOrDefault("keep", "false"));
        if (!keep) {
            deleteTree(home);
        }

        // Settings by their 5.x names, written as a config file so strict validation rejects typos.
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put("server.memory.pagecache.size", pagecache);
        raw.put("dbms.memory.transaction.total.max", "256m");
        raw.put("db.tx_log.preallocate", "false");
        raw.put("db.tx_log.rotation.retention_policy", "100M size");
        raw.put("dbms.usage_report.enabled", "false");
        raw.put("db.lock.acquisition.timeout", "30s");
        raw.put("db.transaction.timeout", "120s");
        // Bolt otherwise waits 5 s twice on shutdown for connections and worker threads to drain.
        raw.put("internal.server.bolt.connection_shutdown_wait_time", "1s");
        raw.put("internal.server.bolt.thread_pool_shutdown_wait_time", "1s");
        raw.put("dbms.security.auth_enabled", Boolean.toString(password != null));

        Path conf = home.resolve("launcher.conf");
        Files.createDirectories(home);
        StringBuilder text = new StringBuilder();
        raw.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        Files.writeString(conf, text.toString());

        long started = System.nanoTime();
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress(host, port))
                .loadPropertiesFromFile(conf)
                .build();

        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.countDown();
            try {
                dbms.shutdown();
            } finally {
                stopped.countDown();
            }
            System.out.println("STOPPED");
            System.out.flush();
        }, "neo4j-launcher-shutdown"));

        dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally("RETURN 1");
        if (password != null) {
            setPassword(dbms, password);
        }
        waitForBolt(host, port);

        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.println("READY bolt://" + host + ":" + port + " (" + millis + " ms)");
        System.out.flush();
        stop.await();
        stopped.await();
    }

    /**
     * Gives user neo4j the password. A kept store may hold that password already, which Neo4j
     * refuses to set again: that case counts as done.
     */
    private static void setPassword(DatabaseManagementService dbms, String password) {
        try {
            dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME).executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
        } catch (QueryExecutionException e) {
            String message = String.valueOf(e.getMessage());
            if (!message.contains("Old password and new password cannot be the same")) {
                throw e;
            }
        }
    }

    /** Waits until the Bolt port accepts TCP connections (the connector starts with the DBMS). */
    private static void waitForBolt(String host, int port) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    fail("Bolt connector on " + host + ":" + port + " does not accept connections: " + e);
                }
                Thread.sleep(100);
            }
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                fail("unexpected argument " + arg + " (options are --key value pairs)");
            }
            String key = arg.substring(2);
            if (!key.matches("home|host|port|pagecache|password|keep")) {
                fail("unknown option --" + key);
            }
            if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                opts.put(key, args[++i]);
            } else {
                opts.put(key, "true");
            }
        }
        return opts;
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    if (exc != null) {
                        throw exc;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    private static void fail(String message) {
        System.err.println("neo4j-launcher: " + message);
        System.exit(2);
    }
}
