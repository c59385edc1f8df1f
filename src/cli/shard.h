/* Sharded runs: `--shard K/N` on lint and measure keeps the K-th of N
 * deterministic parts of the inputs, and `animsmith merge` joins the
 * shards' JSON reports into the report one unsharded run prints
 * (docs/scale.md). */
#ifndef ANIMSMITH_CLI_SHARD_H
#define ANIMSMITH_CLI_SHARD_H

#include <stdbool.h>
#include <stdint.h>

#include "args.h"
#include "cli.h"

/* The largest N of --shard K/N: more shards than any CI matrix or batch
 * array offers, small enough that K and N stay exact in every format. */
#define CLI_SHARD_MAX 100000u

typedef struct {
    bool given;
    uint32_t k, n; /* 1 <= k <= n <= CLI_SHARD_MAX */
} cli_shard;

/* Parses the value of --shard ("K/N"). 0, or 2 after printing the
 * operator error. */
int cli_shard_parse(const char *text, cli_shard *shard);

/* Keeps in files (after directory expansion) only shard K of N: the
 * distinct paths are ranked in byte-wise order and the one of rank r
 * (0-based) belongs to shard r mod N + 1, so every machine computes the
 * same partition from the same inputs whatever their argument order. Every
 * copy of a path named twice goes to the same shard. The kept paths stay
 * in argument order; a shard may keep none. A no-op without --shard.
 * 0, or 2 after printing the operator error. */
int cli_shard_apply(const cli_shard *shard, cli_list *files);

/* animsmith merge REPORT.json...: cmd_merge.c. */
int cmd_merge(int argc, char **argv, const cli_globals *globals);

#endif
