/*
 * Tests of the army-list functions of the C ABI (dbcore_army_*), run by tests/c/run.sh under
 * ASan+UBSan and valgrind. The last line printed is "N passed, N failed"; the exit status is
 * non-zero on any failure.
 */
#include "check.h"
#include "dbcore.h"

#include <stdio.h>
#include <string.h>

static uint32_t array_len(const char *json) {
    uint32_t n = 0;
    CHECK_STATUS(dbcore_json_array_len(json, &n), DBCORE_STATUS_OK);
    return n;
}

/* DBA3.md §16: one list by id, with its name, dates and troop entries. */
static void test_list_by_id(void) {
    char *list = NULL;
    CHECK_STATUS(dbcore_army_list_json("I/1a", &list), DBCORE_STATUS_OK);
    CHECK(list != NULL);
    if (list) {
        CHECK(strstr(list, "\"name\":\"Early Sumerian\"") != NULL);
        CHECK(strstr(list, "\"from\":-3000") != NULL);
        CHECK(strstr(list, "\"1x3Bd (Gen)\"") != NULL);
        char *troops = NULL;
        CHECK_STATUS(dbcore_json_get(list, "troops", &troops), DBCORE_STATUS_OK);
        CHECK(troops && array_len(troops) == 3);
        dbcore_string_free(troops);
    }
    dbcore_string_free(list);
}

/* DBA3.md §16: unknown and malformed ids are refused, naming the rule; no output is written. */
static void test_bad_ids(void) {
    char *out = NULL;
    char rule[32];
    CHECK_STATUS(dbcore_army_list_json("IV/999", &out), DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK(out == NULL);
    dbcore_last_error_rule(rule, sizeof rule);
    CHECK(strcmp(rule, "\xc2\xa7" "16") == 0);
    CHECK_STATUS(dbcore_army_list_json("not an id", &out), DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(dbcore_army_default_json("V/1", &out), DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK(out == NULL);
    CHECK_STATUS(dbcore_army_list_json(NULL, &out), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_army_list_json("I/1a", NULL), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_army_list_json("I/1\xff", &out), DBCORE_STATUS_INVALID_UTF8);
}

/* DBA3.md §16, §16.3: look-ups by name, year, topography and enemies. */
static void test_find(void) {
    char *all = NULL;
    CHECK_STATUS(dbcore_army_lists_find_json(NULL, &all), DBCORE_STATUS_OK);
    uint32_t n_all = all ? array_len(all) : 0;
    CHECK(n_all >= 600);
    dbcore_string_free(all);

    char *found = NULL;
    CHECK_STATUS(dbcore_army_lists_find_json("{\"name\": \"SUMERIAN\", \"year\": -2900}", &found),
                 DBCORE_STATUS_OK);
    CHECK(found && array_len(found) == 1);
    CHECK(found && strstr(found, "\"id\":\"I/1a\"") != NULL);
    dbcore_string_free(found);

    found = NULL;
    CHECK_STATUS(dbcore_army_lists_find_json("{\"topography\": \"littoral\"}", &found),
                 DBCORE_STATUS_OK);
    uint32_t n_lit = found ? array_len(found) : 0;
    CHECK(n_lit > 50 && n_lit < n_all);
    dbcore_string_free(found);

    found = NULL;
    CHECK_STATUS(dbcore_army_lists_find_json("{\"enemy_of\": \"I/1a\"}", &found), DBCORE_STATUS_OK);
    CHECK(found && strstr(found, "\"id\":\"I/4a\"") != NULL);
    dbcore_string_free(found);

    found = NULL;
    CHECK_STATUS(dbcore_army_lists_find_json("{\"nmae\": \"x\"}", &found), DBCORE_STATUS_INVALID_JSON);
    CHECK(found == NULL);
}

/* DBA3.md §2.5, §16.1: the default army has 12 elements and one general. */
static void test_default_army(void) {
    char *army = NULL;
    CHECK_STATUS(dbcore_army_default_json("II/56", &army), DBCORE_STATUS_OK);
    if (army) {
        char *elements = NULL;
        CHECK_STATUS(dbcore_json_get(army, "elements", &elements), DBCORE_STATUS_OK);
        CHECK(elements && array_len(elements) == 12);
        char *first = NULL;
        CHECK_STATUS(dbcore_json_array_at(elements, 0, &first), DBCORE_STATUS_OK);
        CHECK(first && strstr(first, "\"general\":true") != NULL);
        dbcore_string_free(first);
        dbcore_string_free(elements);
    }
    dbcore_string_free(army);
}

static const char *GOOD_CHOICE =
    "{\"list\": \"I/1a\", \"entries\": ["
    "{\"elements\": [\"3Bd\"]},"
    "{\"elements\": [\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\"]},"
    "{\"elements\": [\"Ps\",\"Ps\",\"Ps\"]}]}";

/* DBA3.md §16.1, §2.5: every problem at once, each naming its entry. */
static const char *BAD_CHOICE =
    "{\"list\": \"I/1a\", \"entries\": ["
    "{\"elements\": []},"
    "{\"elements\": [\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\",\"4Bw\"]},"
    "{\"elements\": [\"Ps\",\"Ps\",\"Cv\"]}]}";

static void test_choose(void) {
    char *army = NULL;
    CHECK_STATUS(dbcore_army_choose_json(GOOD_CHOICE, &army), DBCORE_STATUS_OK);
    CHECK(army && strstr(army, "\"aggression\":2") != NULL);
    dbcore_string_free(army);

    char *problems = NULL;
    CHECK_STATUS(dbcore_army_problems_json(GOOD_CHOICE, &problems), DBCORE_STATUS_OK);
    CHECK(problems && array_len(problems) == 0);
    dbcore_string_free(problems);

    army = NULL;
    CHECK_STATUS(dbcore_army_choose_json(BAD_CHOICE, &army), DBCORE_STATUS_INVALID_SETUP);
    CHECK(army == NULL);
    char msg[2048];
    dbcore_last_error_message(msg, sizeof msg);
    CHECK(strstr(msg, "8x4Bw") != NULL);
    CHECK(strstr(msg, "Cv") != NULL);

    problems = NULL;
    CHECK_STATUS(dbcore_army_problems_json(BAD_CHOICE, &problems), DBCORE_STATUS_OK);
    CHECK(problems && array_len(problems) >= 3);
    CHECK(problems && strstr(problems, "\"problem\":\"general_missing\"") != NULL);
    CHECK(problems && strstr(problems, "\"problem\":\"too_many_elements\"") != NULL);
    CHECK(problems && strstr(problems, "\"problem\":\"not_allowed\"") != NULL);
    dbcore_string_free(problems);

    CHECK_STATUS(dbcore_army_choose_json("{\"list\": 5}", &army), DBCORE_STATUS_INVALID_JSON);
    CHECK_STATUS(dbcore_army_problems_json("{\"list\": \"IV/999\", \"entries\": []}", &problems),
                 DBCORE_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(dbcore_army_choose_json(NULL, &army), DBCORE_STATUS_NULL_ARGUMENT);
}

int main(void) {
    test_list_by_id();
    test_bad_ids();
    test_find();
    test_default_army();
    test_choose();
    return check_summary();
}
