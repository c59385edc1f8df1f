/* Name ordering for duplicate detection: equal names adjacent, first
 * occurrence first, unnamed entries left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>

#include "animsmith/names.h"

static void test_order_groups_equal_names_first_occurrence_first(void **state)
{
    (void)state;
    const char *names[] = {"b", NULL, "a", "b", "a#1", "a", NULL, "b"};
    uint32_t m = 99;
    uint32_t *order = anim_names_order(names, 8, &m);
    assert_non_null(order);
    assert_int_equal(m, 6);
    const uint32_t expected[] = {2, 5, 4, 0, 3, 7}; /* a a a#1 b b b */
    for (uint32_t k = 0; k < m; k++)
        assert_int_equal(order[k], expected[k]);
    free(order);
}

static void test_order_empty_and_all_unnamed(void **state)
{
    (void)state;
    uint32_t m = 99;
    uint32_t *order = anim_names_order(NULL, 0, &m);
    assert_non_null(order);
    assert_int_equal(m, 0);
    free(order);
    const char *none[] = {NULL, NULL};
    order = anim_names_order(none, 2, &m);
    assert_non_null(order);
    assert_int_equal(m, 0);
    free(order);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_groups_equal_names_first_occurrence_first),
        cmocka_unit_test(test_order_empty_and_all_unnamed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
