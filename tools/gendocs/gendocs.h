/* The generated documents, one writer per file (man.c, completions.c). */
#ifndef ANIMSMITH_GENDOCS_H
#define ANIMSMITH_GENDOCS_H

#include <stdio.h>

const char *gendocs_version(void);
/* Every check id, space-separated, in catalog order. */
const char *gendocs_check_ids(void);

void gendocs_write_man(FILE *out);
void gendocs_write_bash(FILE *out);
void gendocs_write_zsh(FILE *out);
void gendocs_write_fish(FILE *out);

#endif
