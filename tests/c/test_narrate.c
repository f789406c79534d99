/*
 * Tests of the narration of the C ABI (dbcore_battle_narrate_json,
 * dbcore_battle_narrate_events_json), run by tests/c/run.sh under ASan+UBSan and valgrind.
 * The argument is the directory of the golden traces (tests/golden). The last line printed is
 * "N passed, N failed"; the exit status is non-zero on any failure.
 */
#include "check.h"
#include "dbcore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *golden_dir = "tests/golden";

/* The whole file as a NUL-terminated string (free it), or NULL. */
static char *read_text(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", golden_dir, name);
    return check_read_file(path);
}

static uint32_t array_len(const char *json) {
    uint32_t n = 0;
    CHECK_STATUS(dbcore_json_array_len(json, &n), DBCORE_STATUS_OK);
    return n;
}

/* The battle a golden trace's record replays to, with its events (free both), or NULL. */
static DbcoreBattle *replay(const char *name, char **events) {
    char *text = read_text(name), *record = NULL;
    DbcoreBattle *b = NULL;
    *events = NULL;
    CHECK(text != NULL);
    if (!text) return NULL;
    CHECK_STATUS(dbcore_json_get(text, "record", &record), DBCORE_STATUS_OK);
    if (record) CHECK_STATUS(dbcore_battle_replay_json(record, &b, events), DBCORE_STATUS_OK);
    dbcore_string_free(record);
    free(text);
    return b;
}

/* Whether some line of a JSON array of strings contains `what`. */
static int told(const char *lines, const char *what) {
    return lines != NULL && strstr(lines, what) != NULL;
}

/* One line for each event of the battle, from any index; the same lines as the events told
 * from the array the replay gave. */
static void test_whole_story(const char *name) {
    char *events = NULL, *all = NULL, *part = NULL, *none = NULL, *again = NULL;
    DbcoreBattle *b = replay(name, &events);
    CHECK(b != NULL);
    if (!b) goto done;
    uint32_t n = array_len(events);
    CHECK(n > 10);
    CHECK_STATUS(dbcore_battle_narrate_json(b, 0, &all), DBCORE_STATUS_OK);
    CHECK(all && array_len(all) == n);
    CHECK_STATUS(dbcore_battle_narrate_events_json(b, events, &again), DBCORE_STATUS_OK);
    CHECK(again && all && strcmp(again, all) == 0);
    /* From event 5 on: the same lines, shifted. */
    CHECK_STATUS(dbcore_battle_narrate_json(b, 5, &part), DBCORE_STATUS_OK);
    CHECK(part && array_len(part) == n - 5);
    if (all && part) {
        char *x = NULL, *y = NULL;
        CHECK_STATUS(dbcore_json_array_at(all, 7, &x), DBCORE_STATUS_OK);
        CHECK_STATUS(dbcore_json_array_at(part, 2, &y), DBCORE_STATUS_OK);
        CHECK(x && y && strcmp(x, y) == 0);
        dbcore_string_free(x);
        dbcore_string_free(y);
    }
    /* At or past the end: nothing more to tell. */
    CHECK_STATUS(dbcore_battle_narrate_json(b, n, &none), DBCORE_STATUS_OK);
    CHECK(none && strcmp(none, "[]") == 0);
    dbcore_string_free(none);
    none = NULL;
    CHECK_STATUS(dbcore_battle_narrate_json(b, UINT64_MAX, &none), DBCORE_STATUS_OK);
    CHECK(none && strcmp(none, "[]") == 0);
done:
    dbcore_string_free(events);
    dbcore_string_free(all);
    dbcore_string_free(part);
    dbcore_string_free(none);
    dbcore_string_free(again);
    dbcore_battle_free(b);
}

/* DBA3.md §6.2, §12: a whole battle told in a player's words: the PIP dice, the combats and
 * what the losers and winners did after them. */
static void test_words(void) {
    char *events = NULL, *all = NULL;
    DbcoreBattle *b = replay("whole_battle_seed_1.json", &events);
    CHECK(b != NULL);
    if (!b) goto done;
    CHECK_STATUS(dbcore_battle_narrate_json(b, 0, &all), DBCORE_STATUS_OK);
    CHECK(told(all, "-- bound 2: "));
    CHECK(told(all, " PIPs"));
    CHECK(told(all, "the Romans roll 2 PIPs"));
    CHECK(told(all, "Britons 3Wb #103 recoils 0.50 BW"));
    CHECK(told(all, "Romans 4Bd #3 pursues 0.50 BW"));
    CHECK(!told(all, "Pips") && !told(all, "AwaitingPips"));
done:
    dbcore_string_free(events);
    dbcore_string_free(all);
    dbcore_battle_free(b);
}

/* A DBAix game is told with its figures' names. */
static void test_dbaix(void) {
    char *events = NULL, *all = NULL;
    DbcoreBattle *b = replay("dbaix/dbaix_whole_game_seed_1.json", &events);
    CHECK(b != NULL);
    if (!b) goto done;
    CHECK_STATUS(dbcore_battle_narrate_json(b, 0, &all), DBCORE_STATUS_OK);
    CHECK(all && array_len(all) == array_len(events));
    CHECK(told(all, "-- bound 2: "));
done:
    dbcore_string_free(events);
    dbcore_string_free(all);
    dbcore_battle_free(b);
}

/* Refusals write nothing: NULL arguments, text that is not this game's events. */
static void test_refusals(void) {
    char *events = NULL, *out = NULL;
    DbcoreBattle *b = replay("opening_bounds.json", &events);
    CHECK(b != NULL);
    if (!b) goto done;
    CHECK_STATUS(dbcore_battle_narrate_json(NULL, 0, &out), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_battle_narrate_json(b, 0, NULL), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_battle_narrate_events_json(b, NULL, &out), DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_battle_narrate_events_json(NULL, "[]", &out),
                 DBCORE_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(dbcore_battle_narrate_events_json(b, "[", &out), DBCORE_STATUS_INVALID_JSON);
    CHECK_STATUS(dbcore_battle_narrate_events_json(b, "[{\"event\":\"no_such_event\"}]", &out),
                 DBCORE_STATUS_INVALID_JSON);
    CHECK_STATUS(dbcore_battle_narrate_events_json(b, "[\"\xff\"]", &out),
                 DBCORE_STATUS_INVALID_UTF8);
    CHECK(out == NULL);
    CHECK_STATUS(dbcore_battle_narrate_events_json(b, "[]", &out), DBCORE_STATUS_OK);
    CHECK(out && strcmp(out, "[]") == 0);
done:
    dbcore_string_free(out);
    dbcore_string_free(events);
    dbcore_battle_free(b);
}

int main(int argc, char **argv) {
    if (argc > 1) golden_dir = argv[1];
    test_whole_story("opening_bounds.json");
    test_whole_story("whole_battle_seed_2.json");
    test_words();
    test_dbaix();
    test_refusals();
    return check_summary();
}
