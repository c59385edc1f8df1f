/* Record equality for the unit tests (record_compare.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support/record_compare.h"
#include "support/test_support.h"

static void expect_same_value(const anim_value *a, const anim_value *b)
{
    assert_int_equal(a->kind, b->kind);
    if (a->kind == ANIM_VALUE_NUMBER)
        assert_memory_equal(&a->number, &b->number, sizeof a->number);
    if (a->kind == ANIM_VALUE_TEXT)
        test_support_expect_str(a->text, b->text);
}

static void expect_same_finding(const anim_finding *x, const anim_finding *y)
{
    test_support_expect_str(x->check_id, y->check_id);
    assert_int_equal(x->severity, y->severity);
    test_support_expect_str(x->clip, y->clip);
    test_support_expect_str(x->bone, y->bone);
    test_support_expect_str(x->node, y->node);
    assert_int_equal(x->has_time, y->has_time);
    if (x->has_time)
        assert_memory_equal(&x->time_s, &y->time_s, sizeof x->time_s);
    expect_same_value(&x->measured, &y->measured);
    expect_same_value(&x->expected, &y->expected);
    assert_int_equal(x->member_count, y->member_count);
    for (uint32_t m = 0; m < x->member_count; m++) {
        const anim_member_row *p = &x->members[m], *q = &y->members[m];
        test_support_expect_str(p->member, q->member);
        assert_int_equal(p->measurement_count, q->measurement_count);
        for (uint32_t k = 0; k < p->measurement_count; k++) {
            test_support_expect_str(p->measurements[k].key, q->measurements[k].key);
            expect_same_value(&p->measurements[k].value, &q->measurements[k].value);
        }
    }
    test_support_expect_str(x->message, y->message);
}

void test_support_expect_same_record(const anim_check_record *a, const anim_check_record *b)
{
    assert_string_equal(a->check_id, b->check_id);
    assert_int_equal(a->finding_count, b->finding_count);
    assert_int_equal(a->scope_count, b->scope_count);
    assert_int_equal(a->gap_count, b->gap_count);
    for (uint32_t i = 0; i < a->finding_count; i++)
        expect_same_finding(&a->findings[i], &b->findings[i]);
    for (uint32_t i = 0; i < a->scope_count; i++) {
        test_support_expect_str(a->scopes[i].code, b->scopes[i].code);
        test_support_expect_str(a->scopes[i].subject, b->scopes[i].subject);
    }
    for (uint32_t i = 0; i < a->gap_count; i++) {
        const anim_gap *x = &a->gaps[i], *y = &b->gaps[i];
        test_support_expect_str(x->code, y->code);
        test_support_expect_str(x->message, y->message);
        assert_int_equal(x->has_scope, y->has_scope);
        test_support_expect_str(x->scope.code, y->scope.code);
        test_support_expect_str(x->scope.subject, y->scope.subject);
    }
}

void test_support_expect_same_lint(const anim_lint_file *a, const anim_lint_file *b)
{
    assert_int_equal(a->record_count, b->record_count);
    for (size_t i = 0; i < a->record_count; i++) {
        const anim_check_record *x = &a->records[i], *y = &b->records[i];
        assert_int_equal(x->selected, y->selected);
        assert_int_equal(x->enabled, y->enabled);
        assert_int_equal(x->applicable, y->applicable);
        assert_int_equal(x->evaluation, y->evaluation);
        test_support_expect_same_record(x, y);
    }
}
