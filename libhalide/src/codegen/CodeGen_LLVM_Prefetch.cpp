// The prefetch intrinsic (lower/Prefetch.h): llvm.prefetch (read, high
// locality, data: prefetcht0 on x86) of every cache line the region
// touches. The innermost dimension, when dense, is covered line by line
// (64 bytes); otherwise each of its elements is prefetched. The outer
// dimensions are loops. Nothing is dereferenced, so an address outside
// the buffer (NonFaulting) does not fault.
#include "codegen/CodeGen_LLVM_Internal.h"

#include "Halide/Error.h"
#include "Halide/IROperator.h"

namespace Halide {
namespace Internal {

namespace {

constexpr int64_t kCacheLineBytes = 64;

} // namespace

void CodeGen_LLVM::counted_loop(llvm::Value *n, const std::string &name,
                                const std::function<void(llvm::Value *)> &body) {
    llvm::BasicBlock *pre = b_.GetInsertBlock();
    llvm::BasicBlock *loop = new_block(name + "_loop");
    llvm::BasicBlock *after = new_block(name + "_end");
    b_.CreateCondBr(b_.CreateICmpSGT(n, int_const(i64_, 0)), loop, after);
    b_.SetInsertPoint(loop);
    llvm::PHINode *i = b_.CreatePHI(i64_, 2, name);
    i->addIncoming(int_const(i64_, 0), pre);
    body(i);
    llvm::Value *next = b_.CreateNSWAdd(i, int_const(i64_, 1));
    i->addIncoming(next, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateICmpSLT(next, n), loop, after);
    b_.SetInsertPoint(after);
}

llvm::Value *CodeGen_LLVM::prefetch(const Call *op) {
    internal_assert(op->args.size() >= 4 && op->args.size() % 2 == 0)
        << "prefetch(base, index, extent_0, stride_0, ...) expected";
    const int64_t elem = op->type.bytes();
    const size_t dims = (op->args.size() - 2) / 2;
    std::vector<llvm::Value *> extents, strides; // i64; strides in bytes
    for (size_t d = 0; d < dims; d++) {
        const Expr &e = op->args[2 + 2 * d], &s = op->args[3 + 2 * d];
        extents.push_back(to_i64(codegen(e), e.type()));
        strides.push_back(b_.CreateMul(to_i64(codegen(s), s.type()), int_const(i64_, elem)));
    }
    const int64_t *inner_stride = as_const_int(op->args[3]);
    const bool dense = inner_stride && *inner_stride == 1;
    llvm::Value *start = b_.CreateGEP(i8_, codegen(op->args[0]),
                                      b_.CreateMul(index_i64(op->args[1]), int_const(i64_, elem)), "prefetch_start");
    llvm::Function *hint = llvm::Intrinsic::getDeclaration(&module_, llvm::Intrinsic::prefetch, {ptr_});
    auto emit = [&](llvm::Value *p) {
        // rw 0 (read), locality 3 (keep in every cache level), cache type 1 (data)
        b_.CreateCall(hint, {p, int_const(i32_, 0), int_const(i32_, 3), int_const(i32_, 1)});
    };
    std::function<void(llvm::Value *, size_t)> over = [&](llvm::Value *p, size_t d) {
        if (d > 0) {
            counted_loop(extents[d], "prefetch_dim" + std::to_string(d),
                         [&](llvm::Value *i) { over(b_.CreateGEP(i8_, p, b_.CreateMul(i, strides[d])), d - 1); });
            return;
        }
        if (!dense) {
            counted_loop(extents[0], "prefetch_elem",
                         [&](llvm::Value *i) { emit(b_.CreateGEP(i8_, p, b_.CreateMul(i, strides[0]))); });
            return;
        }
        // The lines from the one holding the first byte to the one holding
        // the last: (offset in the first line + bytes - 1) / 64 + 1 of them.
        llvm::Value *lead = b_.CreateAnd(b_.CreatePtrToInt(p, i64_), int_const(i64_, kCacheLineBytes - 1));
        llvm::Value *bytes = b_.CreateMul(extents[0], int_const(i64_, elem));
        llvm::Value *last = b_.CreateSub(b_.CreateAdd(lead, bytes), int_const(i64_, 1));
        llvm::Value *lines =
            b_.CreateSelect(b_.CreateICmpSGT(extents[0], int_const(i64_, 0)),
                            b_.CreateAdd(b_.CreateSDiv(last, int_const(i64_, kCacheLineBytes)), int_const(i64_, 1)),
                            int_const(i64_, 0));
        llvm::Value *first_line = b_.CreateGEP(i8_, p, b_.CreateNeg(lead));
        counted_loop(lines, "prefetch_line", [&](llvm::Value *k) {
            emit(b_.CreateGEP(i8_, first_line, b_.CreateMul(k, int_const(i64_, kCacheLineBytes))));
        });
    };
    over(start, dims - 1);
    return llvm::Constant::getNullValue(reg_type(op->type));
}

} // namespace Internal
} // namespace Halide
