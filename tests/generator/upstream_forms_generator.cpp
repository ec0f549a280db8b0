// One generator in every form of upstream's Generator API that issue 9
// names, written against that API only: tests/generator/meson.build builds
// this same source with our generator driver and with upstream Halide 14's
// (Debian's libhalide14-0-dev) and upstream_forms_test.cpp compares the
// kernels. Built with
//
//   -g upstream_forms images.size=3 extras.size=2 diffs.size=2 op=max copies=3
//
// it takes images_0..2 (uint8), bias (int16, an Input<Func>), gains_0..1
// (int32), extras_0..1 (uint16, Input<Func[]>) and writes, with
// acc = op(images) (max or sum, in int32):
//
//   combined.0 = uint8(acc) (wrapping)      combined.1 = float(acc) + bias
//   scaled_i   = acc * gains[i % 2] + i + extras[i % 2]   (i < copies, resize())
//   diffs_i    = int16(images[i]) - bias + int16(extras[i % 2])
//   assigned   = acc + x + 100 * y          (a Func assigned to the Output)
#include "Halide.h"

namespace {

using namespace Halide;

enum class Op { Add, Max };

// A Func built apart from the generator and then assigned to an Output.
Func offset_by_coordinates(const Func &acc) {
    Var x("ox"), y("oy");
    Func f("offset_by_coordinates");
    f(x, y) = acc(x, y) + x + 100 * y;
    f.vectorize(x, 4);
    return f;
}

class UpstreamForms : public Halide::Generator<UpstreamForms> {
public:
    GeneratorParam<Op> op{"op", Op::Add, {{"add", Op::Add}, {"max", Op::Max}}};
    GeneratorParam<int> copies{"copies", 2};

    Input<Buffer<uint8_t>[]> images { "images", 2 };
    Input<Func> bias{"bias", Int(16), 2};
    Input<int32_t[2]> gains{"gains", 1};
    Input<Func[]> extras{"extras", UInt(16), 2};

    Output<Func> combined{"combined", {UInt(8), Float(32)}, 2};
    Output<Func[]> scaled{"scaled", Int(32), 2};
    Output<Buffer<int16_t>[]> diffs { "diffs", 2 };
    Output<Func> assigned{"assigned", Int(32), 2};

    void generate() {
        Expr value = cast<int32_t>(images[0](x, y));
        for (size_t i = 1; i < images.size(); i++) {
            Expr v = cast<int32_t>(images[i](x, y));
            value = op == Op::Max ? max(value, v) : value + v;
        }
        acc(x, y) = value;

        combined(x, y) = Tuple(cast<uint8_t>(acc(x, y)), cast<float>(acc(x, y)) + cast<float>(bias(x, y)));

        scaled.resize(copies);
        for (size_t i = 0; i < scaled.size(); i++) {
            Func s;
            s(x, y) = acc(x, y) * gains[i % 2] + (int)i + cast<int32_t>(extras[i % extras.size()](x, y));
            s.parallel(y);
            scaled[i] = s;
        }
        for (size_t i = 0; i < diffs.size(); i++) {
            diffs[i](x, y) = cast<int16_t>(images[i % images.size()](x, y)) - bias(x, y) +
                             cast<int16_t>(extras[i % extras.size()](x, y));
        }
        assigned = offset_by_coordinates(acc);
    }

    void schedule() { combined.vectorize(x, 8).parallel(y); }

private:
    Var x{"x"}, y{"y"};
    Func acc{"acc"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(UpstreamForms, upstream_forms)
