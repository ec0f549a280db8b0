// The algorithm both schedule_header_generator.cpp (which autoschedules it
// and writes the .schedule.h) and schedule_header_test.cpp (which applies
// that header to its own copy) define: two blurs, an update with pure Vars
// only, and a sum of the two blurs. `in` is 2-D int32.
#ifndef HALIDE_TESTS_SCHEDULE_HEADER_ALGORITHM_H
#define HALIDE_TESTS_SCHEDULE_HEADER_ALGORITHM_H

#include "Halide.h"

template <typename In>
Halide::Func schedule_header_algorithm(const In &in, const Halide::Var &x, const Halide::Var &y) {
    Halide::Func blur_x("sh_blur_x"), blur_y("sh_blur_y"), result("sh_result");
    blur_x(x, y) = in(x, y) + in(x + 1, y) + in(x + 2, y);
    blur_y(x, y) = blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2);
    blur_y(x, y) += blur_y(x, y) / 2;
    result(x, y) = blur_y(x, y) * 2 + blur_x(x, y);
    return result;
}

// The same values in plain C++ (in(x, y) given by `in_at`).
template <typename F> int schedule_header_reference(const F &in_at, int x, int y) {
    auto bx = [&](int i, int j) { return in_at(i, j) + in_at(i + 1, j) + in_at(i + 2, j); };
    int by = bx(x, y) + bx(x, y + 1) + bx(x, y + 2);
    by += by / 2; // non-negative here: C and Halide division agree
    return by * 2 + bx(x, y);
}

#endif
