/*
 * replay: replay a saved battle (a dbcore battle record, or a golden trace holding one), print
 * every event, and then roll the next PIP die from seeded dice if the battle waits for it.
 *
 *     replay RECORD.json [SEED]      (e.g. tests/golden/opening_bounds.json 7)
 *
 * Every rule is dbcore's: the program passes JSON in and prints the JSON that comes back.
 *
 * Build (from the repository root) against dbcore installed in DIR:
 *     cargo run -p xtask -- install --prefix DIR
 *     export PKG_CONFIG_PATH=DIR/lib/pkgconfig
 *     cc -std=c11 examples/c/replay.c $(pkg-config --cflags --libs dbcore) -o replay
 */
#include "example.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print one event on its own line. */
static void print_event(const char *event) { printf("  %s\n", event); }

int main(int argc, char **argv) {
    char *text, *record = NULL, *events = NULL, *phase = NULL;
    DbcoreBattle *battle = NULL;
    DbcoreDice *dice = NULL;
    uint32_t army = 0, bound = 0, pips = 0;
    DbcoreStatus s;
    int rc = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s RECORD.json [SEED]\n", argv[0]);
        return 2;
    }
    if (!(text = read_file(argv[1]))) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    /* A golden trace holds its record under "record"; a record file is the record itself. */
    if (dbcore_json_get(text, "record", &record) != DBCORE_STATUS_OK) record = NULL;
    s = dbcore_battle_replay_json(record ? record : text, &battle, &events);
    if (s != DBCORE_STATUS_OK) {
        rc = fail("replay", s);
        goto done;
    }
    printf("events:\n");
    if ((s = for_each_item(events, print_event, NULL)) != DBCORE_STATUS_OK) {
        rc = fail("events", s);
        goto done;
    }
    dbcore_string_free(events);
    events = NULL;
    if ((s = dbcore_battle_phase(battle, &phase)) != DBCORE_STATUS_OK ||
        (s = dbcore_battle_active_army(battle, &army)) != DBCORE_STATUS_OK ||
        (s = dbcore_battle_bound(battle, &bound)) != DBCORE_STATUS_OK) {
        rc = fail("battle", s);
        goto done;
    }
    printf("bound %u, army %u to move, phase %s\n", bound, army, phase);
    if (strcmp(phase, "awaiting_pips") == 0) {
        unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
        if ((s = dbcore_dice_new((uint64_t)seed, &dice)) != DBCORE_STATUS_OK ||
            (s = dbcore_battle_roll_pips(battle, dice, &events)) != DBCORE_STATUS_OK ||
            (s = dbcore_battle_pips(battle, &pips)) != DBCORE_STATUS_OK) {
            rc = fail("roll PIPs", s);
            goto done;
        }
        printf("army %u rolls its PIP die (seed %llu):\n", army, seed);
        for_each_item(events, print_event, NULL);
        printf("%u PIPs to spend\n", pips);
    }
done:
    dbcore_string_free(events);
    dbcore_string_free(phase);
    dbcore_string_free(record);
    dbcore_battle_free(battle);
    dbcore_dice_free(dice);
    free(text);
    return rc;
}
