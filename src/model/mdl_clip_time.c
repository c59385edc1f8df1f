/* Clip duration and the fit of clip options to it (see the header). */
#include "model/mdl_clip_time.h"

double mdl_clip_duration(const mdl_clip *c)
{
    double d = 0;
    for (size_t i = 0; i < c->channel_count; i++) {
        const mdl_channel *ch = &c->channels[i];
        if (ch->key_count && ch->keys[ch->key_count - 1].time > d)
            d = ch->keys[ch->key_count - 1].time;
    }
    return d;
}

int mdl_clip_options_fit(mdl_ctx *ctx, const mdl_clip *c, double duration)
{
    if (mdl_spend(ctx, 1 + c->event_count))
        return -1;
    for (size_t i = 0; i < c->event_count; i++)
        if (c->events[i].time > duration)
            return mdl_refuse(ctx, "invalid_clip",
                              "clip \"%s\" event %zu (\"%s\") at %.17g s lies past the clip's "
                              "duration %.17g s",
                              c->name, i, c->events[i].name, c->events[i].time, duration);
    for (size_t i = 0; i < c->morph_track_count; i++) {
        const mdl_morph_track *t = &c->morph_tracks[i];
        if (mdl_spend(ctx, t->key_count))
            return -1;
        for (size_t k = 0; k < t->key_count; k++)
            if (t->keys[k].time > duration)
                return mdl_refuse(ctx, "invalid_clip",
                                  "clip \"%s\" morph \"%s\" key %zu at %.17g s lies past the "
                                  "clip's duration %.17g s",
                                  c->name, t->morph, k, t->keys[k].time, duration);
    }
    return 0;
}
