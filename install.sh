#!/bin/sh
# Installs the prebuilt agent-memory binary: picks the archive for this platform, checks its
# SHA-256, and puts the binary in ~/.local/bin. No root, no compiler.
#
#   curl -fsSL https://github.com/agent-memory/agent-memory/releases/latest/download/install.sh | sh
#   sh install.sh [--prefix DIR] [--from DIR] [--version X.Y.Z]
#
#   --prefix DIR    install DIR/bin/agent-memory (default: ~/.local; env AGENT_MEMORY_PREFIX)
#   --from DIR      take the archive and its .sha256 from a local folder instead of downloading
#                   them (env AGENT_MEMORY_ARCHIVES)
#   --version V     the release to install (default: the one this script came with;
#                   env AGENT_MEMORY_VERSION)
#
# Nothing is installed unless the archive matches its published checksum.
set -eu

VERSION="${AGENT_MEMORY_VERSION:-0.1.0}"
PREFIX="${AGENT_MEMORY_PREFIX:-${HOME:?HOME is not set}/.local}"
FROM="${AGENT_MEMORY_ARCHIVES:-}"
BASE_URL="${AGENT_MEMORY_BASE_URL:-https://github.com/agent-memory/agent-memory/releases/download}"

say() { printf 'agent-memory install.sh: %s\n' "$*" >&2; }
die() {
    say "$*"
    exit 1
}

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; PREFIX=$2; shift 2 ;;
        --from) [ $# -ge 2 ] || die "--from needs a folder"; FROM=$2; shift 2 ;;
        --version) [ $# -ge 2 ] || die "--version needs a version"; VERSION=${2#v}; shift 2 ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
done

# The Rust target of this machine, among those a release carries.
platform() {
    os=$(uname -s)
    cpu=$(uname -m)
    case "$cpu" in
        x86_64 | amd64) cpu=x86_64 ;;
        aarch64 | arm64) cpu=aarch64 ;;
        *) die "no prebuilt binary for the CPU $cpu; build from source: cargo install --locked --path cli" ;;
    esac
    case "$os" in
        Linux)
            if ldd --version 2>&1 | grep -qi musl; then
                die "the prebuilt Linux binaries need glibc 2.35 or later and this system uses musl; build from source: cargo install --locked --path cli"
            fi
            echo "$cpu-unknown-linux-gnu"
            ;;
        Darwin) echo "$cpu-apple-darwin" ;;
        *) die "no prebuilt binary for $os; build from source: cargo install --locked --path cli" ;;
    esac
}

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        die "neither sha256sum nor shasum is available to check the download"
    fi
}

fetch() {
    if command -v curl >/dev/null 2>&1; then
        curl --fail --silent --show-error --location --retry 3 -o "$2" "$1"
    elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1"
    else
        die "neither curl nor wget is available to download $1"
    fi
}

TARGET=$(platform)
NAME="agent-memory-$VERSION-$TARGET"
WORK=$(mktemp -d 2>/dev/null || mktemp -d -t agent-memory)
trap 'rm -rf "$WORK"' EXIT INT TERM

if [ -n "$FROM" ]; then
    [ -f "$FROM/$NAME.tar.gz" ] || die "no $NAME.tar.gz in $FROM"
    [ -f "$FROM/$NAME.tar.gz.sha256" ] || die "no $NAME.tar.gz.sha256 beside the archive in $FROM"
    cp "$FROM/$NAME.tar.gz" "$FROM/$NAME.tar.gz.sha256" "$WORK/"
    SOURCE=$FROM
else
    SOURCE="$BASE_URL/v$VERSION"
    say "downloading $NAME.tar.gz from $SOURCE"
    fetch "$SOURCE/$NAME.tar.gz" "$WORK/$NAME.tar.gz"
    fetch "$SOURCE/$NAME.tar.gz.sha256" "$WORK/$NAME.tar.gz.sha256"
fi

expected=$(cut -d' ' -f1 "$WORK/$NAME.tar.gz.sha256")
actual=$(sha256_of "$WORK/$NAME.tar.gz")
if [ "$expected" != "$actual" ]; then
    die "$NAME.tar.gz from $SOURCE has SHA-256 $actual, not the published $expected: refused, nothing installed"
fi

tar -xzf "$WORK/$NAME.tar.gz" -C "$WORK"
[ -f "$WORK/$NAME/agent-memory" ] || die "$NAME.tar.gz holds no $NAME/agent-memory: nothing installed"
"$WORK/$NAME/agent-memory" --version >/dev/null 2>&1 \
    || die "the binary in $NAME.tar.gz does not run on this machine: nothing installed"

BIN="$PREFIX/bin"
mkdir -p "$BIN"
# Copied beside the old binary, then renamed over it: a running hook keeps its file.
cp "$WORK/$NAME/agent-memory" "$BIN/.agent-memory.new"
chmod 0755 "$BIN/.agent-memory.new"
mv -f "$BIN/.agent-memory.new" "$BIN/agent-memory"

say "installed $("$BIN/agent-memory" --version) ($TARGET, SHA-256 checked) to $BIN/agent-memory"
case ":${PATH:-}:" in
    *":$BIN:"*) run=agent-memory ;;
    *)
        run="$BIN/agent-memory"
        say "$BIN is not on your PATH; add it, e.g. in ~/.profile: export PATH=\"$BIN:\$PATH\""
        ;;
esac
say "next: \`$run install\` wires the hooks into the harnesses found on this machine, then \`$run doctor\` checks them"
