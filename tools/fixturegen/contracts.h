/* The example contracts (examples/NAME.toml), kept as text in the generator so
 * one run reproduces the whole examples/ tree. */
#ifndef ANIMSMITH_FIXTUREGEN_CONTRACTS_H
#define ANIMSMITH_FIXTUREGEN_CONTRACTS_H

#include <stddef.h>

typedef struct fg_contract {
    const char *file;
    const char *text;
} fg_contract;

extern const fg_contract fg_contracts[];
extern const size_t fg_contract_count;

#endif
