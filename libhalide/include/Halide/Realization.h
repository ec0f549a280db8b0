// Halide::Realization: the buffers one run of a pipeline produces, one per
// output Func and Tuple value, in order.
#ifndef HALIDE_REALIZATION_H
#define HALIDE_REALIZATION_H

#include <vector>

#include "Halide/Buffer.h"
#include "Halide/Error.h"

namespace Halide {

class Realization {
public:
    explicit Realization(std::vector<Buffer<>> buffers) : buffers_(std::move(buffers)) {}
    size_t size() const { return buffers_.size(); }
    Buffer<> &operator[](size_t i) { return buffers_.at(i); }
    const Buffer<> &operator[](size_t i) const { return buffers_.at(i); }
    // A single-output Realization converts to its Buffer.
    template <typename T, int D> operator Buffer<T, D>() const {
        user_assert(buffers_.size() == 1)
            << "A Realization of " << buffers_.size() << " buffers can't be converted to one Buffer";
        return buffers_[0];
    }

private:
    std::vector<Buffer<>> buffers_;
};

} // namespace Halide

#endif
