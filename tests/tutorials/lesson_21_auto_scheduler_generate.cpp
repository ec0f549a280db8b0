// Lesson 21: the schedule chosen for you. Upstream's lesson gives a
// generator estimates of its input sizes and parameter values
// (set_estimate / set_estimates) and lets an autoscheduler plugin
// (-p libautoschedule_*.so autoscheduler=Mullapudi2016) write the schedule.
//
// Upstream's autoscheduler names run one simple built-in heuristic here
// (docs/language.md), not upstream's search, so this lesson writes its
// schedule by hand, choosing what upstream's autoscheduler would for this
// pipeline (tiles, compute_at inside them, vectors and threads); the
// estimates are declared the same way (they end up in the kernel's metadata). The GeneratorParam
// `hand_schedule` builds the kernel with that schedule or with none (every
// stage inlined into the output, as an unscheduled pipeline is);
// lesson_21_auto_scheduler_run.cpp checks both against C++.
#include "Halide.h"

using namespace Halide;

namespace {

class Unsharp : public Generator<Unsharp> {
public:
    GeneratorParam<bool> hand_schedule{"hand_schedule", true};

    Input<Buffer<float, 3>> input{"input"};
    Input<float> strength{"strength"};
    Output<Buffer<float, 3>> output{"output"};

    void generate() {
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func gray("gray"), blur_x("blur_x"), blur_y("blur_y"), sharpen("sharpen");
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
        blur_x(x, y) =
            (gray(x - 2, y) + 4 * gray(x - 1, y) + 6 * gray(x, y) + 4 * gray(x + 1, y) + gray(x + 2, y)) / 16;
        blur_y(x, y) =
            (blur_x(x, y - 2) + 4 * blur_x(x, y - 1) + 6 * blur_x(x, y) + 4 * blur_x(x, y + 1) + blur_x(x, y + 2)) / 16;
        sharpen(x, y) = gray(x, y) + strength * (gray(x, y) - blur_y(x, y));
        // Scale each channel by how much the luminance changed.
        Expr ratio = sharpen(x, y) / max(gray(x, y), 1e-3f);
        output(x, y, c) = clamp(input(x, y, c) * ratio, 0.0f, 1.0f);

        // What an autoscheduler is told: the sizes and values to expect.
        input.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});
        strength.set_estimate(0.8f);
        output.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});

        if (hand_schedule) {
            Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
            output.reorder(c, x, y).bound(c, 0, 3).unroll(c);
            output.tile(x, y, xo, yo, xi, yi, 64, 32).parallel(yo).vectorize(xi, 8);
            gray.compute_at(output, xo).vectorize(x, 8);
            blur_x.compute_at(output, xo).vectorize(x, 8);
            blur_y.compute_at(output, xo).vectorize(x, 8);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(Unsharp, lesson_21_unsharp)
