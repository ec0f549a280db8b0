/* A kernel built with the trace features, run from C with a trace handler
 * installed by halide_set_custom_trace: every event arrives, in upstream's
 * order, with its func, code, parent id, coordinates, value and type. The
 * expected events are written out from the pipeline's definition:
 *   f(x, y) = x + y (float, at root), g(x, y) = 2 f(x, y) + 1 (the output),
 * realized over x in [1, 4], y in [3, 4]. Also built against a kernel
 * compiled by upstream Halide 21 (tests/python/test_trace_abi.py). */
#include <stdio.h>
#include <string.h>

#include "HalideRuntime.h"
#include KERNEL_HEADER

#define MAX_EVENTS 128

struct recorded {
    int id, event, parent, value_index, dimensions, code, bits, lanes;
    char func[32], tag[64];
    int coords[8];
    float value;
    int has_value, has_coords;
};

static struct recorded events[MAX_EVENTS];
static int count = 0;
static int failures = 0;

static int32_t record(void *user_context, const struct halide_trace_event_t *e) {
    (void)user_context;
    if (count >= MAX_EVENTS) {
        return -1;
    }
    struct recorded *r = &events[count];
    memset(r, 0, sizeof(*r));
    r->id = 1000 + count;
    r->event = e->event;
    r->parent = e->parent_id;
    r->value_index = e->value_index;
    r->dimensions = e->dimensions;
    r->code = e->type.code;
    r->bits = e->type.bits;
    r->lanes = e->type.lanes;
    snprintf(r->func, sizeof(r->func), "%s", e->func);
    snprintf(r->tag, sizeof(r->tag), "%s", e->trace_tag ? e->trace_tag : "(null)");
    r->has_coords = e->coordinates != NULL;
    for (int i = 0; i < e->dimensions && i < 8 && e->coordinates; i++) {
        r->coords[i] = e->coordinates[i];
    }
    r->has_value = e->value != NULL;
    if (e->value && e->type.code == halide_type_float && e->type.bits == 32) {
        r->value = *(const float *)e->value;
    }
    count++;
    return r->id;
}

static int next = 0;

/* Checks the next recorded event; returns its id. */
static int expect(int event, const char *func, int parent, int ncoords, const int *coords, const char *tag,
                  int has_value, float value) {
    if (next >= count) {
        printf("FAIL: event %d (%s) missing\n", next, func);
        failures++;
        return -1;
    }
    const struct recorded *r = &events[next];
    int ok = r->event == event && strcmp(r->func, func) == 0 && r->parent == parent && r->dimensions == ncoords &&
             r->value_index == 0 && strcmp(r->tag, tag) == 0 && r->has_value == has_value &&
             r->has_coords == (ncoords > 0);
    for (int i = 0; ok && i < ncoords; i++) {
        ok = r->coords[i] == coords[i];
    }
    if (has_value) {
        ok = ok && r->code == halide_type_float && r->bits == 32 && r->lanes == 1 && r->value == value;
    } else {
        ok = ok && r->code == halide_type_handle && r->bits == 0 && r->lanes == 0;
    }
    if (!ok) {
        printf("FAIL: event %d: got event %d func %s parent %d dims %d tag '%s' type %d/%d/%d value %g; "
               "expected event %d func %s parent %d dims %d tag '%s'\n",
               next, r->event, r->func, r->parent, r->dimensions, r->tag, r->code, r->bits, r->lanes, r->value, event,
               func, parent, ncoords, tag);
        failures++;
    }
    return 1000 + next++;
}

int main(void) {
    float data[2][4];
    halide_dimension_t dims[2] = {{1, 4, 1, 0}, {3, 2, 4, 0}};
    halide_buffer_t out;
    memset(&out, 0, sizeof(out));
    out.host = (uint8_t *)data;
    out.type.code = halide_type_float;
    out.type.bits = 32;
    out.type.lanes = 1;
    out.dimensions = 2;
    out.dim = dims;

    halide_trace_t old = halide_set_custom_trace(record);
    int result = KERNEL(&out);
    halide_set_custom_trace(old);
    if (result != 0) {
        printf("FAIL: kernel returned %d\n", result);
        return 1;
    }
    for (int y = 3; y <= 4; y++) {
        for (int x = 1; x <= 4; x++) {
            if (data[y - 3][x - 1] != 2.0f * (float)(x + y) + 1) {
                printf("FAIL: out(%d, %d) = %g\n", x, y, data[y - 3][x - 1]);
                failures++;
            }
        }
    }

    const int box[4] = {1, 4, 3, 2};
    const char *k = KERNEL_NAME;
    int p = expect(halide_trace_begin_pipeline, k, 0, 0, NULL, "", 0, 0);
    expect(halide_trace_tag, "f", p, 0, NULL, "func_type_and_dim: 1 2 32 1 2 1 4 3 2", 0, 0);
    expect(halide_trace_tag, "g", p, 0, NULL, "func_type_and_dim: 1 2 32 1 2 1 4 3 2", 0, 0);
    int rg = expect(halide_trace_begin_realization, "g", p, 4, box, "", 0, 0);
    int rf = expect(halide_trace_begin_realization, "f", p, 4, box, "", 0, 0);
    int pf = expect(halide_trace_produce, "f", rf, 4, box, "", 0, 0);
    for (int y = 3; y <= 4; y++) {
        for (int x = 1; x <= 4; x++) {
            int at[2] = {x, y};
            expect(halide_trace_store, "f", pf, 2, at, "", 1, (float)(x + y));
        }
    }
    expect(halide_trace_end_produce, "f", pf, 4, box, "", 0, 0);
    int cf = expect(halide_trace_consume, "f", rf, 4, box, "", 0, 0);
    int pg = expect(halide_trace_produce, "g", rg, 4, box, "", 0, 0);
    for (int y = 3; y <= 4; y++) {
        for (int x = 1; x <= 4; x++) {
            int at[2] = {x, y};
            expect(halide_trace_load, "f", cf, 2, at, "", 1, (float)(x + y));
            expect(halide_trace_store, "g", pg, 2, at, "", 1, 2.0f * (float)(x + y) + 1);
        }
    }
    expect(halide_trace_end_produce, "g", pg, 4, box, "", 0, 0);
    expect(halide_trace_end_consume, "f", cf, 4, box, "", 0, 0);
    expect(halide_trace_end_realization, "f", rf, 4, box, "", 0, 0);
    expect(halide_trace_end_realization, "g", rg, 4, box, "", 0, 0);
    expect(halide_trace_end_pipeline, k, p, 0, NULL, "", 0, 0);
    if (next != count) {
        printf("FAIL: %d events, expected %d\n", count, next);
        failures++;
    }
    if (failures) {
        return 1;
    }
    printf("aot_trace_test: %d events as expected\n", count);
    return 0;
}
