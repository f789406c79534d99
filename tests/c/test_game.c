/*
 * Tests of the C ABI's game sessions (dbcore_game_new_json, dbcore_game_call_json): the same
 * surface as Python, the protocol and the browser. A whole DBA battle, a whole DBAix game and a
 * whole BUGS! encounter are played by choosing only from "legal_actions", with no refused try;
 * "undo" takes an action back; the game record reads back; the BUGS! golden encounter gives its
 * events. Run by tests/c/run.sh under ASan+UBSan and valgrind; the argument is the repository's
 * root, and a second argument "short" leaves out the three whole games. The last line printed is "N passed, N failed"; the exit status is non-zero on a failure.
 */
#include "check.h"
#include "dbcore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *root = ".";

/* The whole file at root/name, NUL-terminated (free it), or NULL. */
static char *read_text(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, name);
    return check_read_file(path);
}

/* `method` of the game, its answer's `key` (free it); NULL after a refusal. */
static char *ask(DbcoreGame *g, const char *method, const char *params, const char *key) {
    char *answer = NULL, *part = NULL;
    CHECK_STATUS(dbcore_game_call_json(g, method, params, &answer), DBCORE_STATUS_OK);
    if (!answer) return NULL;
    if (!key) return answer;
    CHECK_STATUS(dbcore_json_get(answer, key, &part), DBCORE_STATUS_OK);
    dbcore_string_free(answer);
    return part;
}

/* `method` of the game, its answer dropped: the status. */
static DbcoreStatus call(DbcoreGame *g, const char *method, const char *params) {
    char *answer = NULL;
    DbcoreStatus s = dbcore_game_call_json(g, method, params, &answer);
    dbcore_string_free(answer);
    return s;
}

/* Whether the game is over ("stage" of "info" is "finished"). */
static int finished(DbcoreGame *g) {
    char *stage = ask(g, "info", NULL, "stage");
    int over = stage != NULL && strcmp(stage, "\"finished\"") == 0;
    dbcore_string_free(stage);
    return over;
}

/* Play the game to its end choosing from its legal actions (a fixed pseudo-random pick);
 * every apply must be accepted. Returns the actions applied. */
static uint32_t play_out(DbcoreGame *g, uint32_t max_actions) {
    uint32_t n = 0, pick = 12345;
    while (n < max_actions && !finished(g)) {
        char *actions = ask(g, "legal_actions", NULL, "actions"), *action = NULL, *params = NULL;
        uint32_t count = 0;
        if (!actions) break;
        CHECK_STATUS(dbcore_json_array_len(actions, &count), DBCORE_STATUS_OK);
        CHECK(count > 0);
        if (count == 0) {
            dbcore_string_free(actions);
            break;
        }
        pick = pick * 1103515245u + 12345u;
        CHECK_STATUS(dbcore_json_array_at(actions, (pick >> 16) % count, &action),
                     DBCORE_STATUS_OK);
        params = malloc(strlen(action) + 16);
        sprintf(params, "{\"action\":%s}", action);
        /* No refused try: every listed action is accepted as it stands. */
        CHECK_STATUS(call(g, "apply", params), DBCORE_STATUS_OK);
        free(params);
        dbcore_string_free(action);
        dbcore_string_free(actions);
        n++;
    }
    return n;
}

/* A whole game from `how`, then its record read back into a new game at the same revision. */
static void test_whole_game(const char *how, uint32_t max_actions) {
    DbcoreGame *g = NULL, *again = NULL;
    char *record = NULL, *load = NULL, *r1 = NULL, *r2 = NULL;
    CHECK_STATUS(dbcore_game_new_json(how, &g), DBCORE_STATUS_OK);
    if (!g) return;
    uint32_t n = play_out(g, max_actions);
    CHECK(n > 10);
    CHECK(finished(g));
    record = ask(g, "record", NULL, NULL);
    if (record) {
        load = malloc(strlen(record) + 16);
        sprintf(load, "{\"game\":%s}", record);
        CHECK_STATUS(dbcore_game_new_json(load, &again), DBCORE_STATUS_OK);
        if (again) {
            r1 = ask(g, "info", NULL, "revision");
            r2 = ask(again, "info", NULL, "revision");
            CHECK(r1 && r2 && strcmp(r1, r2) == 0);
        }
    }
    dbcore_string_free(r1);
    dbcore_string_free(r2);
    free(load);
    dbcore_string_free(record);
    dbcore_game_free(again);
    dbcore_game_free(g);
}

/* "undo" takes the last action back: the same legal actions as before it. */
static void test_undo(void) {
    DbcoreGame *g = NULL;
    char *before = NULL, *after = NULL, *first = NULL, *params = NULL, *undone = NULL;
    CHECK_STATUS(dbcore_game_new_json("{\"demo\":\"battle\",\"seed\":7}", &g), DBCORE_STATUS_OK);
    if (!g) return;
    before = ask(g, "legal_actions", NULL, "actions");
    CHECK_STATUS(dbcore_json_array_at(before, 0, &first), DBCORE_STATUS_OK);
    params = malloc(strlen(first) + 16);
    sprintf(params, "{\"action\":%s}", first);
    CHECK_STATUS(call(g, "apply", params), DBCORE_STATUS_OK);
    undone = ask(g, "undo", NULL, "action");
    uint32_t same = 0;
    CHECK_STATUS(dbcore_json_equal(undone, first, &same), DBCORE_STATUS_OK);
    CHECK(same == 1);
    after = ask(g, "legal_actions", NULL, "actions");
    CHECK_STATUS(dbcore_json_equal(before, after, &same), DBCORE_STATUS_OK);
    CHECK(same == 1);
    /* A refusal names its rule and changes nothing. */
    CHECK_STATUS(call(g, "undo", NULL), DBCORE_STATUS_WRONG_PHASE);
    free(params);
    dbcore_string_free(before);
    dbcore_string_free(after);
    dbcore_string_free(first);
    dbcore_string_free(undone);
    dbcore_game_free(g);
}

/* The BUGS! golden encounter (synthetic tables) read as a game gives its saved events. */
static void test_bugs_golden(void) {
    char *text = read_text("tests/golden/bugs/bugs-encounter-1.json"), *events = NULL;
    char *how = NULL, *got = NULL;
    DbcoreGame *g = NULL;
    CHECK(text != NULL);
    if (!text) return;
    CHECK_STATUS(dbcore_json_get(text, "events", &events), DBCORE_STATUS_OK);
    how = malloc(strlen(text) + 16);
    sprintf(how, "{\"game\":%s}", text);
    CHECK_STATUS(dbcore_game_new_json(how, &g), DBCORE_STATUS_OK);
    if (g) {
        CHECK_STATUS(dbcore_game_call_json(g, "events", NULL, &got), DBCORE_STATUS_OK);
        uint32_t same = 0;
        CHECK_STATUS(dbcore_json_equal(got, events, &same), DBCORE_STATUS_OK);
        CHECK(same == 1);
    }
    dbcore_string_free(got);
    dbcore_string_free(events);
    dbcore_game_free(g);
    free(how);
    free(text);
}

int main(int argc, char **argv) {
    if (argc > 1) root = argv[1];
    /* "short" (under valgrind, where whole games take minutes): undo and the golden replay. */
    int whole = !(argc > 2 && strcmp(argv[2], "short") == 0);
    if (whole) {
        test_whole_game("{\"demo\":\"battle\",\"seed\":3}", 2000);
        test_whole_game("{\"demo\":\"dbaix\",\"seed\":3}", 4000);
    }
    char *tables = whole ? read_text("tests/bugs/synthetic-tables.json") : NULL;
    CHECK(!whole || tables != NULL);
    if (tables) {
        char *how = malloc(strlen(tables) + 64);
        sprintf(how, "{\"bugs\":{\"encounter\":1,\"tables\":%s},\"seed\":5}", tables);
        test_whole_game(how, 20000);
        free(how);
        free(tables);
    }
    test_undo();
    test_bugs_golden();
    return check_summary();
}
