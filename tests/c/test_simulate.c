/*
 * Tests of the batch simulation of the C ABI (dbcore_simulate_json), run by tests/c/run.sh under
 * ASan+UBSan and valgrind. The last line printed is "N passed, N failed"; the exit status is
 * non-zero on any failure.
 */
#include "check.h"
#include "dbcore.h"

#include <stdio.h>
#include <string.h>

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

int main(void) {
    test_threads_agree();
    test_refusals();
    return check_summary();
}
