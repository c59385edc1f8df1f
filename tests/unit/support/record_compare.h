/* Record equality for the unit tests: two lint records (or two whole lint
 * results) hold the same findings, scopes and gaps in the same order,
 * field by field and string by string (the bytes, not the pointers).
 * Include after <cmocka.h>'s prerequisites. */
#ifndef ANIMSMITH_TEST_RECORD_COMPARE_H
#define ANIMSMITH_TEST_RECORD_COMPARE_H

#include "animsmith/lint.h"

void test_support_expect_same_record(const anim_check_record *a, const anim_check_record *b);

/* Every record of a and b (same catalog), with its state and evaluation. */
void test_support_expect_same_lint(const anim_lint_file *a, const anim_lint_file *b);

#endif
