/*
 * Tests of the batch simulation of the C ABI (dbcore_simulate_json), run by tests/c/run.sh under
 * ASan+UBSan and valgrind. The last line printed is "N passed, N failed"; the exit status is
 * non-zero on any failure.
 */
#include "check.h"
#include "dbcore.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define BATCH(threads)                                                              \
    "{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},\"battles\":3,\"seed\":1,"       \
    "\"max_bounds\":6,\"threads\":" threads "}"

/* The same master seed gives the same records on one and on two threads. */
static void test_threads_agree(void) {
    char *one = NULL;
    char *two = NULL;
    CHECK_STATUS(dbcore_simulate_json(BATCH("1"), &one), DBCORE_STATUS_OK);
    CHECK_STATUS(dbcore_simulate_json(BATCH("2"), &two), DBCORE_STATUS_OK);
    CHECK(one && two && strcmp(one, two) == 0);
    if (one) {
        char *records = NULL;
        uint32_t n = 0;
        CHECK_STATUS(dbcore_json_get(one, "records", &records), DBCORE_STATUS_OK);
        CHECK_STATUS(dbcore_json_array_len(records, &n), DBCORE_STATUS_OK);
        CHECK(n == 3);
        dbcore_string_free(records);
        char *summary = NULL;
        CHECK_STATUS(dbcore_json_get(one, "summary", &summary), DBCORE_STATUS_OK);
        CHECK(summary && strstr(summary, "\"wins\"") && strstr(summary, "\"low\""));
        dbcore_string_free(summary);
        CHECK(strstr(one, "\"cancelled\":false") != NULL);
    }
    dbcore_string_free(one);
    dbcore_string_free(two);
}

/* Refusals write nothing: bad JSON, unknown lists, limits, NULL. */
static void test_refusals(void) {
    char *out = NULL;
    CHECK_STATUS(dbcore_simulate_json("{", &out), DBCORE_STATUS_INVALID_JSON);
    CHECK(out == NULL);
    /* DBA3.md §16: a list id naming no bundled list. */
    CHECK_STATUS(dbcore_simulate_json(
                     "{\"source\":{\"lists\":[\"II/56\",\"IV/999\"]},\"battles\":1}", &out),
                 DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(dbcore_simulate_json(
                     "{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},\"battles\":1,"
                     "\"threads\":100000}",
                     &out),
                 DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(dbcore_simulate_json(NULL, &out), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_simulate_json(BATCH("1"), NULL), DBCORE_STATUS_NULL_ARGUMENT);
}

/* Sleep a little between polls (POSIX nanosleep is not in C11's <time.h>, so busy-wait on
 * clock(), which is). */
static void pause_a_little(void) {
    clock_t until = clock() + CLOCKS_PER_SEC / 100;
    while (clock() < until) {
    }
}

/* A batch on its own threads: progress shows battles finishing, cancel stops it, and wait hands
 * back exactly the battles that finished, marked cancelled. */
static void test_cancel_returns_the_finished_part(void) {
    DbcoreSimulation *sim = NULL;
    CHECK_STATUS(dbcore_simulation_start(
                     "{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},\"battles\":100000,"
                     "\"seed\":3,\"max_bounds\":8,\"threads\":2}",
                     &sim),
                 DBCORE_STATUS_OK);
    if (!sim) return;
    uint64_t done = 0, total = 0;
    uint32_t finished = 1;
    /* Wait for the first finished battle (bounded: a debug battle takes well under a second). */
    DbcoreStatus polled = DBCORE_STATUS_OK;
    for (int i = 0; i < 60000 && done == 0 && polled == DBCORE_STATUS_OK; i++) {
        polled = dbcore_simulation_progress(sim, &done, &total, &finished);
        if (done == 0) pause_a_little();
    }
    CHECK(polled == DBCORE_STATUS_OK);
    CHECK(done >= 1);
    CHECK(total == 100000);
    CHECK(finished == 0);
    CHECK_STATUS(dbcore_simulation_cancel(sim), DBCORE_STATUS_OK);
    CHECK_STATUS(dbcore_simulation_cancel(sim), DBCORE_STATUS_OK);
    char *json = NULL;
    CHECK_STATUS(dbcore_simulation_wait(sim, &json), DBCORE_STATUS_OK);
    CHECK_STATUS(dbcore_simulation_progress(sim, &done, NULL, &finished), DBCORE_STATUS_OK);
    CHECK(finished == 1);
    if (json) {
        CHECK(strstr(json, "\"cancelled\":true") != NULL);
        char *records = NULL;
        uint32_t n = 0;
        CHECK_STATUS(dbcore_json_get(json, "records", &records), DBCORE_STATUS_OK);
        CHECK_STATUS(dbcore_json_array_len(records, &n), DBCORE_STATUS_OK);
        /* Every battle that finished is there, and no more. */
        CHECK(n >= 1 && n < 100000 && (uint64_t)n == done);
        dbcore_string_free(records);
        /* Waiting again gives the same outcome. */
        char *again = NULL;
        CHECK_STATUS(dbcore_simulation_wait(sim, &again), DBCORE_STATUS_OK);
        CHECK(again && strcmp(json, again) == 0);
        dbcore_string_free(again);
    }
    dbcore_string_free(json);
    dbcore_simulation_free(sim);
}

/* A batch run to its end on its own threads gives what dbcore_simulate_json gives; a handle freed
 * while it runs is cancelled and joined (ASan and valgrind see no leak); refusals come at start. */
static void test_handle_agrees_and_frees(void) {
    DbcoreSimulation *sim = NULL;
    CHECK_STATUS(dbcore_simulation_start(BATCH("2"), &sim), DBCORE_STATUS_OK);
    char *json = NULL;
    char *direct = NULL;
    CHECK_STATUS(dbcore_simulation_wait(sim, &json), DBCORE_STATUS_OK);
    CHECK_STATUS(dbcore_simulate_json(BATCH("1"), &direct), DBCORE_STATUS_OK);
    CHECK(json && direct && strcmp(json, direct) == 0);
    dbcore_string_free(json);
    dbcore_string_free(direct);
    dbcore_simulation_free(sim);

    sim = NULL;
    CHECK_STATUS(dbcore_simulation_start(
                     "{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},\"battles\":100000,"
                     "\"max_bounds\":8,\"threads\":2}",
                     &sim),
                 DBCORE_STATUS_OK);
    dbcore_simulation_free(sim);
    dbcore_simulation_free(NULL);

    sim = NULL;
    /* DBA3.md §16: a list id naming no bundled list is refused before any thread starts. */
    CHECK_STATUS(dbcore_simulation_start(
                     "{\"source\":{\"lists\":[\"II/56\",\"IV/999\"]},\"battles\":1}", &sim),
                 DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK(sim == NULL);
    CHECK_STATUS(dbcore_simulation_start("{", &sim), DBCORE_STATUS_INVALID_JSON);
    CHECK_STATUS(dbcore_simulation_cancel(NULL), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_simulation_wait(NULL, &json), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_simulation_progress(NULL, NULL, NULL, NULL),
                 DBCORE_STATUS_NULL_ARGUMENT);
}

/* A streamed batch gives its records in chunks of at most the size asked, in index order, then
 * [] at its end; wait then gives the same summary as the batch that keeps its records, with no
 * records. */
static void test_a_stream_gives_chunks_then_the_summary(void) {
    DbcoreSimulation *sim = NULL;
    CHECK_STATUS(dbcore_simulation_stream(
                     "{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},\"battles\":5,\"seed\":1,"
                     "\"max_bounds\":6,\"threads\":2}",
                     &sim),
                 DBCORE_STATUS_OK);
    if (!sim) return;
    char *chunk = NULL;
    CHECK_STATUS(dbcore_simulation_next(sim, 0, &chunk), DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK(chunk == NULL);
    uint32_t total = 0;
    int chunks = 0;
    for (int guard = 0; guard < 100; guard++) {
        chunk = NULL;
        uint32_t n = 0;
        CHECK_STATUS(dbcore_simulation_next(sim, 2, &chunk), DBCORE_STATUS_OK);
        if (!chunk) break;
        CHECK_STATUS(dbcore_json_array_len(chunk, &n), DBCORE_STATUS_OK);
        CHECK(n <= 2);
        if (n >= 1) {
            /* The chunk's first record is the next index. */
            char want[32];
            snprintf(want, sizeof want, "[{\"index\":%u,", total);
            CHECK(strncmp(chunk, want, strlen(want)) == 0);
        }
        dbcore_string_free(chunk);
        if (n == 0) break;
        total += n;
        chunks++;
    }
    CHECK(total == 5);
    CHECK(chunks >= 3);
    char *json = NULL;
    char *direct = NULL;
    CHECK_STATUS(dbcore_simulation_wait(sim, &json), DBCORE_STATUS_OK);
    CHECK_STATUS(dbcore_simulate_json(
                     "{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},\"battles\":5,\"seed\":1,"
                     "\"max_bounds\":6,\"threads\":1}",
                     &direct),
                 DBCORE_STATUS_OK);
    if (json && direct) {
        char *a = NULL;
        char *b = NULL;
        CHECK_STATUS(dbcore_json_get(json, "summary", &a), DBCORE_STATUS_OK);
        CHECK_STATUS(dbcore_json_get(direct, "summary", &b), DBCORE_STATUS_OK);
        CHECK(a && b && strcmp(a, b) == 0);
        dbcore_string_free(a);
        dbcore_string_free(b);
        CHECK(strstr(json, "\"records\":[]") != NULL);
        CHECK(strstr(json, "\"cancelled\":false") != NULL);
    }
    dbcore_string_free(json);
    dbcore_string_free(direct);
    /* Read past the end: [] again. */
    chunk = NULL;
    CHECK_STATUS(dbcore_simulation_next(sim, 2, &chunk), DBCORE_STATUS_OK);
    CHECK(chunk && strcmp(chunk, "[]") == 0);
    dbcore_string_free(chunk);
    dbcore_simulation_free(sim);

    /* A long stream read once and freed: the batch waiting for its reader stops, nothing leaks. */
    sim = NULL;
    CHECK_STATUS(dbcore_simulation_stream(
                     "{\"source\":{\"lists\":[\"II/56\",\"II/5a\"]},\"battles\":100000,"
                     "\"max_bounds\":4,\"threads\":2}",
                     &sim),
                 DBCORE_STATUS_OK);
    chunk = NULL;
    CHECK_STATUS(dbcore_simulation_next(sim, 1, &chunk), DBCORE_STATUS_OK);
    CHECK(chunk && strncmp(chunk, "[{\"index\":0,", 12) == 0);
    dbcore_string_free(chunk);
    dbcore_simulation_free(sim);

    /* A batch that keeps its records streams nothing. */
    sim = NULL;
    CHECK_STATUS(dbcore_simulation_start(BATCH("1"), &sim), DBCORE_STATUS_OK);
    chunk = NULL;
    CHECK_STATUS(dbcore_simulation_next(sim, 10, &chunk), DBCORE_STATUS_OK);
    CHECK(chunk && strcmp(chunk, "[]") == 0);
    dbcore_string_free(chunk);
    dbcore_simulation_free(sim);
    CHECK_STATUS(dbcore_simulation_next(NULL, 1, &chunk), DBCORE_STATUS_NULL_ARGUMENT);
}

int main(void) {
    test_threads_agree();
    test_a_stream_gives_chunks_then_the_summary();
    test_refusals();
    test_cancel_returns_the_finished_part();
    test_handle_agrees_and_frees();
    return check_summary();
}
