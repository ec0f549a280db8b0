// Test helpers: `count` elements of T ending at (end_at_page_end) or
// starting at a page boundary next to an inaccessible page, so a generated
// load past the end (or before the start) faults instead of reading junk;
// and a dense w x h image in such memory.
#ifndef HALIDE_TESTS_GUARDED_ARRAY_H
#define HALIDE_TESTS_GUARDED_ARRAY_H

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>

#include "HalideBuffer.h"

template <typename T> class GuardedArray {
public:
    GuardedArray(size_t count, bool end_at_page_end) {
        page_ = (size_t)sysconf(_SC_PAGESIZE);
        size_t bytes = count * sizeof(T);
        size_t pages = (bytes + page_ - 1) / page_;
        size_ = (pages + 2) * page_;
        base_ = (char *)mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        mprotect(base_, page_, PROT_NONE);
        mprotect(base_ + (pages + 1) * page_, page_, PROT_NONE);
        data_ = (T *)(end_at_page_end ? base_ + (pages + 1) * page_ - bytes : base_ + page_);
    }
    ~GuardedArray() { munmap(base_, size_); }
    GuardedArray(const GuardedArray &) = delete;
    GuardedArray &operator=(const GuardedArray &) = delete;
    T *data() { return data_; }

private:
    size_t page_, size_;
    char *base_;
    T *data_;
};

// A dense w x h image (rows of w elements) in a GuardedArray.
template <typename T> class GuardedImage {
public:
    GuardedImage(int w, int h, bool end_at_page_end) : storage_((size_t)w * h, end_at_page_end) {
        halide_dimension_t dims[2] = {{0, w, 1, 0}, {0, h, w, 0}};
        buffer_ = Halide::Runtime::Buffer<T>(storage_.data(), 2, dims);
    }
    Halide::Runtime::Buffer<T> &buffer() { return buffer_; }

private:
    GuardedArray<T> storage_;
    Halide::Runtime::Buffer<T> buffer_;
};

#endif
