/*
 * narrate: play the demonstration battle with seeded dice and tell it in English, one line an
 * event, as dbcore narrates it.
 *
 *     narrate [SEED [MAX_BOUNDS]]      (e.g. narrate 1 12)
 *
 * Every rule and every word is dbcore's: the program plays the battle (dbcore_play_json), takes
 * the record out of the JSON that comes back, replays it into a battle handle and asks for the
 * story (dbcore_battle_narrate_json).
 *
 * Build against an installed dbcore (cargo run -p xtask -- install --prefix DIR):
 *     cc -std=c11 examples/c/narrate.c $(pkg-config --cflags --libs dbcore) -o narrate
 * with PKG_CONFIG_PATH=DIR/lib/pkgconfig, or with CMake: see examples/c/cmake/.
 */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string item as text: the utilities hand back JSON, so "\"text\"" loses its quotes.
 * The narration holds no escapes other than those of quotes and backslashes, undone here. */
static void print_line(const char *json) {
    size_t n = strlen(json);
    if (n < 2 || json[0] != '"') return;
    if (n == 2) return; /* an event a player would not mention */
    for (size_t i = 1; i + 1 < n; i++) {
        if (json[i] == '\\' && i + 2 < n) i++;
        putchar(json[i]);
    }
    putchar('\n');
}

int main(int argc, char **argv) {
    unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    unsigned long max_bounds = argc > 2 ? strtoul(argv[2], NULL, 10) : 60;
    char *played = NULL, *record = NULL, *events = NULL, *lines = NULL, *verdict = NULL;
    DbcoreBattle *battle = NULL;
    DbcoreStatus s;
    int rc = 1;

    if (strcmp(dbcore_version(), DBCORE_VERSION_STRING) != 0) {
        fprintf(stderr, "dbcore.h is %s but the library is %s\n", DBCORE_VERSION_STRING,
                dbcore_version());
        return 1;
    }
    if ((s = dbcore_play_json(NULL, seed, (uint32_t)max_bounds, &played)) != DBCORE_STATUS_OK) {
        rc = fail("dbcore_play_json", s);
        goto done;
    }
    if ((s = dbcore_json_get(played, "record", &record)) != DBCORE_STATUS_OK ||
        (s = dbcore_json_get(played, "verdict", &verdict)) != DBCORE_STATUS_OK) {
        rc = fail("dbcore_json_get", s);
        goto done;
    }
    if ((s = dbcore_battle_replay_json(record, &battle, &events)) != DBCORE_STATUS_OK) {
        rc = fail("dbcore_battle_replay_json", s);
        goto done;
    }
    if ((s = dbcore_battle_narrate_json(battle, 0, &lines)) != DBCORE_STATUS_OK) {
        rc = fail("dbcore_battle_narrate_json", s);
        goto done;
    }
    uint32_t n = 0;
    if ((s = for_each_item(lines, print_line, &n)) != DBCORE_STATUS_OK) {
        rc = fail("the story's lines", s);
        goto done;
    }
    printf("%u events; verdict %s\n", n, verdict);
    rc = 0;
done:
    dbcore_string_free(played);
    dbcore_string_free(record);
    dbcore_string_free(events);
    dbcore_string_free(lines);
    dbcore_string_free(verdict);
    dbcore_battle_free(battle);
    return rc;
}
