/* The availability vocabulary of every optional measurement: a leaf
 * header, so each measurement family (and measure.h, which embeds their
 * records) can use it without including the others. */
#ifndef ANIMSMITH_AVAILABILITY_H
#define ANIMSMITH_AVAILABILITY_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ANIM_AVAIL_UNDECIDED = 0,   /* not derived by this build: omitted */
    ANIM_AVAIL_MEASURED,
    ANIM_AVAIL_NOT_APPLICABLE,
    ANIM_AVAIL_UNAVAILABLE
} anim_availability;

/* "measured", "not_applicable", "unavailable"; NULL for UNDECIDED. */
const char *anim_availability_name(anim_availability a);

#ifdef __cplusplus
}
#endif
#endif
