// Lesson 16: one generator, several memory layouts. An RGB image can be
// planar (each channel a separate plane: x has stride 1) or interleaved
// (RGBRGB...: c has stride 1, x stride 3). By default a kernel assumes x
// has stride 1; constraints on the input's and output's strides let the
// compiler specialize for the interleaved layout, and specialize() emits
// both and picks one at run time. The GeneratorParam `layout` chooses:
// planar, interleaved, either (no assumption: slower, works for both) or
// specialized (both code paths).
#include "Halide.h"

using namespace Halide;

namespace {

enum class Layout { Planar, Interleaved, Either, Specialized };

class Brighten : public Generator<Brighten> {
public:
    GeneratorParam<Layout> layout{"layout",
                                  Layout::Planar,
                                  {{"planar", Layout::Planar},
                                   {"interleaved", Layout::Interleaved},
                                   {"either", Layout::Either},
                                   {"specialized", Layout::Specialized}}};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Input<uint8_t> offset{"offset"};
    Output<Buffer<uint8_t, 3>> brighter{"brighter"};

    void generate() {
        brighter(x, y, c) = saturating_cast<uint8_t>(cast<uint16_t>(input(x, y, c)) + offset);
        brighter.vectorize(x, 16);

        if (layout == Layout::Planar) {
            // The default: x has stride 1.
        } else if (layout == Layout::Interleaved) {
            // c has stride 1 and exactly three channels; x steps over them.
            input.dim(0).set_stride(3);
            input.dim(2).set_stride(1).set_bounds(0, 3);
            brighter.output_buffer().dim(0).set_stride(3);
            brighter.output_buffer().dim(2).set_stride(1).set_bounds(0, 3);
            // Iterate over c innermost, unrolled, so stores are contiguous.
            brighter.reorder(c, x, y).unroll(c);
        } else if (layout == Layout::Either) {
            // No stride assumption at all.
            input.dim(0).set_stride(Expr());
            brighter.output_buffer().dim(0).set_stride(Expr());
        } else {
            // Both: lift the default, then specialize on the strides seen
            // (and three channels, so that the loop over c can be unrolled).
            input.dim(0).set_stride(Expr());
            brighter.output_buffer().dim(0).set_stride(Expr());
            Expr interleaved = input.dim(0).stride() == 3 && input.dim(2).stride() == 1 &&
                               brighter.output_buffer().dim(0).stride() == 3 &&
                               brighter.output_buffer().dim(2).stride() == 1 && input.dim(2).extent() == 3 &&
                               brighter.output_buffer().dim(2).extent() == 3;
            Expr planar = input.dim(0).stride() == 1 && brighter.output_buffer().dim(0).stride() == 1;
            brighter.specialize(interleaved).reorder(c, x, y).unroll(c);
            brighter.specialize(planar);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(Brighten, lesson_16_brighten)
