//! A database whose notes were indexed by an earlier rule is indexed anew when a store connects.
//!
//! A test binary of its own: it drops and recreates the notes' full-text index, which the tests
//! of `neo4j.rs` search through while they run (test binaries run one after another).

use memory_core::{MemoryStore, SearchQuery};
use memory_testkit::fixtures::{note, project_scope};
use neo4rs::{Graph, query};
use support::{connect, raw, server};

mod support;

async fn index_names(graph: &Graph) -> Vec<String> {
    let mut rows = graph.execute(query("SHOW INDEXES YIELD name RETURN name")).await.expect("show");
    let mut names = Vec::new();
    while let Some(row) = rows.next().await.expect("row") {
        names.push(row.get::<String>("name").expect("name"));
    }
    names
}

#[tokio::test]
async fn notes_indexed_by_an_earlier_rule_are_found_by_their_topics_after_a_connect() {
    let Some(config) = server() else { return };
    let scope = project_scope("reindexed");
    let pnpm = note(&scope, "conventions.md", "Conventions", &[], "- always use pnpm here, not npm\n");
    connect(&config).await.put_note(&pnpm).await.expect("put");

    // The database as the release before topics left it: the note's words only, under the
    // earlier index.
    let graph = raw(&config);
    let words = memory_core::search::words(&memory_core::search::note_text(&pnpm)).join(" ");
    graph
        .run(
            query("MATCH (n:Note {scope: $scope}) SET n.search_text = $words")
                .param("scope", scope.to_string())
                .param("words", words),
        )
        .await
        .expect("older text");
    graph.run(query("DROP INDEX agent_memory_note_text_2 IF EXISTS")).await.expect("drop");
    graph
        .run(query(
            "CREATE FULLTEXT INDEX agent_memory_note_text IF NOT EXISTS FOR (n:Note) ON EACH [n.search_text] \
             OPTIONS { indexConfig: { `fulltext.analyzer`: 'standard-no-stop-words', \
             `fulltext.eventually_consistent`: false } }",
        ))
        .await
        .expect("earlier index");
    graph.run(query("CALL db.awaitIndexes(30)")).await.expect("online");

    let store = connect(&config).await;
    graph.run(query("CALL db.awaitIndexes(30)")).await.expect("online");
    let names = index_names(&graph).await;
    assert!(names.iter().any(|n| n == "agent_memory_note_text_2"), "{names:?}");
    assert!(!names.iter().any(|n| n == "agent_memory_note_text"), "the earlier index is dropped: {names:?}");
    let hits = store
        .search_notes(&SearchQuery::new("which package manager?", vec![scope.clone()], 5))
        .await
        .expect("search");
    assert_eq!(hits.iter().map(|h| h.note.path.as_str()).collect::<Vec<_>>(), ["conventions.md"]);
    assert_eq!(hits[0].matched_terms, 2, "found by the topic pnpm names");
}
