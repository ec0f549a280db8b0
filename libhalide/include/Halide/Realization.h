// Halide::Realization: the buffers one run of a pipeline produces, one per
// output Func and Tuple value, in order.
#ifndef HALIDE_REALIZATION_H
#define HALIDE_REALIZATION_H

#include <memory>
#include <type_traits>
#include <utility>
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

namespace Internal {

// What realize() and infer_input_bounds() fill (upstream's
// Pipeline::RealizationArg): a Realization, one raw or Runtime buffer, or
// Halide::Buffers listed in braces, realize({a, b}). It refers to them for
// the length of the call. Exactly one of the members is set.
struct RealizationArg {
    Realization *r = nullptr;
    halide_buffer_t *buf = nullptr;
    std::unique_ptr<std::vector<Buffer<>>> buffer_list;

    RealizationArg(Realization &r) : r(&r) {}
    RealizationArg(Realization &&r) : r(&r) {}
    RealizationArg(halide_buffer_t *buf) : buf(buf) {}
    template <typename T, int Dims> RealizationArg(Runtime::Buffer<T, Dims> &dst) : buf(dst.raw_buffer()) {}
    template <typename T, int Dims, typename... Args,
              typename = std::enable_if_t<(std::is_convertible<Args, Buffer<>>::value && ...)>>
    RealizationArg(Buffer<T, Dims> &first, Args &&...rest)
        : buffer_list(std::make_unique<std::vector<Buffer<>>>(
              std::initializer_list<Buffer<>>{Buffer<>(first), Buffer<>(std::forward<Args>(rest))...})) {}
    RealizationArg(RealizationArg &&) = default;

    size_t size() const { return r ? r->size() : buffer_list ? buffer_list->size() : 1; }
    // The buffers as a Realization (a raw buffer is wrapped, not copied).
    Realization realization() const {
        if (r) {
            return *r;
        }
        if (buffer_list) {
            return Realization(*buffer_list);
        }
        user_assert(buf) << "realize() was given a null buffer";
        return Realization({Buffer<>(*buf)});
    }
};

} // namespace Internal
} // namespace Halide

#endif
