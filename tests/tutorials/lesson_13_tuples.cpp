// Lesson 13: Funcs with several values per point. A Tuple on the right of
// a definition gives one value of each element's type; realize() returns
// a Realization holding one Buffer per element. Tuples make reductions
// that track several things at once (the position and value of a maximum)
// and small user types (complex numbers, for a Mandelbrot set).
#include <cmath>
#include <complex>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

// A complex number as a pair of Exprs; a Tuple converts to and from it.
struct Complex {
    Expr re, im;
    Complex(Tuple t) : re(t[0]), im(t[1]) {}
    Complex(Expr r, Expr i) : re(r), im(i) {}
    Complex(FuncRef f) : Complex(Tuple(f)) {}
    operator Tuple() const { return {re, im}; }
    Complex operator+(const Complex &o) const { return {re + o.re, im + o.im}; }
    Complex operator*(const Complex &o) const { return {re * o.re - im * o.im, re * o.im + im * o.re}; }
    Expr magnitude_squared() const { return re * re + im * im; }
};

} // namespace

int main() {
    Var x("x"), y("y"), c("c");

    // The alternative to a Tuple: an extra dimension selected with mux.
    {
        Func f("f_channels");
        f(x, y, c) = mux(c, {x + y, x * y});
        Buffer<int> out = f.realize({20, 10, 2});
        tutorial::check_image("channels", out, [](int x, int y, int c) { return c == 0 ? x + y : x * y; });
    }

    // A Tuple of an int and a float.
    {
        Func multi_valued("multi_valued");
        multi_valued(x, y) = Tuple(x + y, sin(cast<float>(x * y)));
        tutorial::check(multi_valued.outputs() == 2, "two outputs");
        tutorial::check(multi_valued.output_types()[0] == Int(32) && multi_valued.output_types()[1] == Float(32),
                        "the elements keep their types");
        Realization r = multi_valued.realize({80, 60});
        tutorial::check(r.size() == 2, "the realization has two buffers");
        Buffer<int> im0 = r[0];
        Buffer<float> im1 = r[1];
        tutorial::check_image("element 0", im0, [](int x, int y, int) { return x + y; });
        tutorial::check_image(
            "element 1", im1, [](int x, int y, int) { return std::sin((float)(x * y)); }, 1e-5);

        // Calls to a Tuple-valued Func index the element they use.
        Func consumer("consumer");
        consumer(x, y) = multi_valued(x, y)[0] + multi_valued(x, y)[1];
        Buffer<float> sum = consumer.realize({80, 60});
        tutorial::check_image(
            "consumer", sum, [](int x, int y, int) { return (float)(x + y) + std::sin((float)(x * y)); }, 1e-4);
    }

    // A reduction carrying the index and the value of the maximum.
    {
        Func input_func("input_func");
        input_func(x) = sin(cast<float>(x));
        Func arg_max("arg_max");
        arg_max() = Tuple(0, input_func(0));
        RDom r(1, 99);
        Expr old_index = arg_max()[0], old_max = arg_max()[1];
        Expr new_index = select(old_max < input_func(r), r, old_index);
        Expr new_max = max(input_func(r), old_max);
        arg_max() = Tuple(new_index, new_max);
        Realization result = arg_max.realize({});
        Buffer<int> idx = result[0];
        Buffer<float> val = result[1];

        int best = 0;
        float best_v = std::sin(0.0f);
        for (int i = 1; i < 100; i++) {
            float v = std::sin((float)i);
            if (best_v < v)
                best = i, best_v = v;
        }
        if (idx() != best)
            tutorial::fail("arg_max index %d instead of %d", idx(), best);
        if (std::fabs(val() - best_v) > 1e-5f)
            tutorial::fail("arg_max value %f instead of %f", val(), best_v);

        // The inline version.
        Func inline_arg_max("inline_arg_max");
        inline_arg_max() = argmax(input_func(r));
        Realization r2 = inline_arg_max.realize({});
        Buffer<int> idx2 = r2[0];
        if (idx2() != best)
            tutorial::fail("inline argmax index %d instead of %d", idx2(), best);
    }

    // A Mandelbrot set with complex numbers as Tuples.
    {
        const int W = 61, H = 25, steps = 12;
        Func mandelbrot("mandelbrot");
        Complex initial(x / 15.0f - 2.5f, y / 6.0f - 2.0f);
        Var t("t");
        mandelbrot(x, y, t) = Complex(0.0f, 0.0f);
        RDom r(1, steps - 1);
        Complex current = mandelbrot(x, y, r - 1);
        mandelbrot(x, y, r) = current * current + initial;

        // The first step where the magnitude passes 4 (or steps).
        Expr escape_condition = Complex(mandelbrot(x, y, r)).magnitude_squared() > 16.0f;
        Tuple first_escape = argmax(escape_condition);
        Func count("count");
        count(x, y) = first_escape[0];

        Buffer<int> out = count.realize({W, H});
        int mismatches = 0;
        for (int yy = 0; yy < H; yy++) {
            for (int xx = 0; xx < W; xx++) {
                float cre = xx / 15.0f - 2.5f, cim = yy / 6.0f - 2.0f;
                float zr = 0, zi = 0;
                int first = -1;
                for (int k = 1; k < steps; k++) {
                    float nr = zr * zr - zi * zi + cre, ni = zr * zi + zi * zr + cim;
                    zr = nr, zi = ni;
                    if (first < 0 && zr * zr + zi * zi > 16.0f)
                        first = k;
                }
                // As upstream's, argmax starts from index 0 with the lowest
                // value (false) and only a strictly greater one replaces
                // it: an all-false condition answers 0, outside the RDom.
                int want = first < 0 ? 0 : first;
                if (out(xx, yy) != want)
                    mismatches++;
            }
        }
        // Floating-point contraction may move a point right at the escape
        // threshold by one step; allow a handful of such points.
        if (mismatches > W * H / 100)
            tutorial::fail("mandelbrot: %d points differ", mismatches);
    }

    return tutorial::finish("lesson_13_tuples");
}
