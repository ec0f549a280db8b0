// Loads whose lanes fall in a short run of elements, as dense loads and one
// variable permute, and the permute itself (x86 only).
//
// A gather whose index is computed from the lane's coordinate (no load in
// it) often reads a handful of neighbouring elements in some order: the
// edge vectors of an image read through mirror_interior read
// in[mirror(x - 2 ... x + 13)], the elements 0 to 13 with 0 to 2 read
// twice. LLVM has no shuffle with a run-time mask, so such a gather was a
// scalar load and a lane insert per lane. Here the index vector's smallest
// and largest lane are computed first; where they are at most n - 1 apart
// (n lanes) and at least n / 2 - 1, the run they bound is read by two loads
// of n / 2 lanes at its two ends (both inside the run, so no element the
// gather would not have read is touched, however close the run is to the
// end of the buffer or of mapped memory), and each lane is picked out of
// those n elements by its index minus the run's first. Otherwise (a longer
// or shorter run) the gather is kept.
//
// The permute: vpermd / vpermps for 32-bit lanes (AVX2, 8 lanes; AVX-512,
// 16), vpermw (AVX-512BW) and vpermb (AVX-512VBMI) for narrower lanes, and
// pshufb for a 16-byte table (SSSE3) or a 32-byte one (AVX2: both halves of
// the table looked up, one kept per lane). A table of two AVX2 registers is
// looked up in each half and the right one kept per lane.
#include "codegen/CodeGen_LLVM_Internal.h"

#include <vector>

#include "Halide/IR.h"
#include "ir/UsesVars.h"

namespace Halide {
namespace Internal {

bool CodeGen_LLVM::native_permute(int lanes, int bits) const {
    switch (bits) {
    case 64: return x86_.avx512f && (lanes == 8 || (lanes == 4 && x86_.avx512vl));
    case 32: return (x86_.avx2 && lanes == 8) || (x86_.avx512f && lanes == 16);
    case 16: return x86_.avx512bw && (lanes == 32 || (x86_.avx512vl && (lanes == 8 || lanes == 16)));
    case 8: return x86_.avx512vbmi && (lanes == 64 || (x86_.avx512vl && lanes == 32));
    default: return false;
    }
}

bool CodeGen_LLVM::permute_supported(int lanes, int bits) const {
    if (lanes < 2 || (lanes & (lanes - 1)) != 0 || (bits != 8 && bits != 16 && bits != 32 && bits != 64)) {
        return false;
    }
    if (native_permute(lanes, bits)) {
        return true;
    }
    if (bits == 64) {
        return permute_supported(lanes * 2, 32);
    }
    int bytes = lanes * bits / 8;
    if ((bytes == 16 && x86_.ssse3) || (bytes == 32 && x86_.avx2)) {
        return true;
    }
    // Two registers' worth: each half of the table looked up.
    return bytes == 64 && x86_.avx2 && permute_supported(lanes / 2, bits);
}

llvm::Value *CodeGen_LLVM::permute(llvm::Value *table, llvm::Value *at) {
    auto *tt = llvm::cast<llvm::FixedVectorType>(table->getType());
    int lanes = (int)tt->getNumElements(), bits = (int)tt->getScalarSizeInBits();
    auto splat = [&](int64_t v, int b) {
        return b_.CreateVectorSplat(lanes, llvm::ConstantInt::get(llvm::IntegerType::get(ctx_, b), v));
    };
    auto narrow = [&](llvm::Value *v, int b) {
        return b_.CreateTrunc(v, llvm::FixedVectorType::get(llvm::IntegerType::get(ctx_, b), lanes));
    };
    if (native_permute(lanes, bits)) {
        llvm::Intrinsic::ID id = llvm::Intrinsic::not_intrinsic;
        switch (bits) {
        case 64:
            id = lanes == 8 ? llvm::Intrinsic::x86_avx512_permvar_di_512 : llvm::Intrinsic::x86_avx512_permvar_di_256;
            break;
        case 32: id = lanes == 8 ? llvm::Intrinsic::x86_avx2_permd : llvm::Intrinsic::x86_avx512_permvar_si_512; break;
        case 16:
            id = lanes == 32   ? llvm::Intrinsic::x86_avx512_permvar_hi_512
                 : lanes == 16 ? llvm::Intrinsic::x86_avx512_permvar_hi_256
                               : llvm::Intrinsic::x86_avx512_permvar_hi_128;
            break;
        default:
            id = lanes == 64 ? llvm::Intrinsic::x86_avx512_permvar_qi_512 : llvm::Intrinsic::x86_avx512_permvar_qi_256;
            break;
        }
        llvm::Value *idx = bits == 64 ? b_.CreateZExt(at, tt) : bits == 32 ? at : narrow(at, bits);
        return b_.CreateCall(llvm::Intrinsic::getDeclaration(&module_, id), {table, idx});
    }
    if (bits == 64) {
        // As twice as many 32-bit lanes: lane i reads lanes 2p and 2p + 1.
        auto *wide = llvm::FixedVectorType::get(i32_, 2 * lanes);
        llvm::Value *twice = b_.CreateShl(at, splat(1, 32));
        std::vector<int> pairs(2 * lanes);
        for (int i = 0; i < 2 * lanes; i++) {
            pairs[i] = i / 2 + (i % 2) * lanes;
        }
        llvm::Value *both = b_.CreateShuffleVector(twice, b_.CreateOr(twice, splat(1, 32)), pairs);
        return b_.CreateBitCast(permute(b_.CreateBitCast(table, wide), both), tt);
    }
    int bytes = lanes * bits / 8;
    if (bytes == 64) {
        // Each half of the table looked up at the index's low bits; the
        // lanes whose index is in the upper half keep the second.
        int h = lanes / 2;
        std::vector<int> first(h), second(h);
        for (int i = 0; i < h; i++) {
            first[i] = i, second[i] = h + i;
        }
        llvm::Value *t0 = b_.CreateShuffleVector(table, first), *t1 = b_.CreateShuffleVector(table, second);
        std::vector<llvm::Value *> halves;
        for (const std::vector<int> &which : {first, second}) {
            llvm::Value *p = b_.CreateShuffleVector(at, which);
            llvm::Value *low = b_.CreateAnd(p, b_.CreateVectorSplat(h, b_.getInt32(h - 1)));
            llvm::Value *upper = b_.CreateICmpSGE(p, b_.CreateVectorSplat(h, b_.getInt32(h)));
            halves.push_back(b_.CreateSelect(upper, permute(t1, low), permute(t0, low)));
        }
        return concat_vectors(halves);
    }
    // pshufb: byte j of the result is byte ctrl[j] of the table. Lane i's
    // bytes are bytes p * size + k of the table, k < size.
    int size = bits / 8;
    llvm::Value *ctrl;
    if (size == 1) {
        ctrl = narrow(at, 8);
    } else {
        int64_t times = 0, plus = 0;
        for (int k = 0; k < size; k++) {
            times |= (int64_t)size << (8 * k);
            plus |= (int64_t)k << (8 * k);
        }
        llvm::Value *p = narrow(at, bits);
        ctrl = b_.CreateAdd(b_.CreateMul(p, splat(times, bits)), splat(plus, bits));
        ctrl = b_.CreateBitCast(ctrl, llvm::FixedVectorType::get(i8_, bytes));
    }
    llvm::Value *table8 = b_.CreateBitCast(table, llvm::FixedVectorType::get(i8_, bytes));
    llvm::Value *picked;
    if (bytes == 16) {
        picked = b_.CreateCall(llvm::Intrinsic::getDeclaration(&module_, llvm::Intrinsic::x86_ssse3_pshuf_b_128),
                               {table8, ctrl});
    } else {
        // AVX2's pshufb looks up each 16-byte half of ctrl in the same half
        // of the table: look up both halves of the table copied to both
        // halves of a register, and keep per byte the one ctrl names.
        std::vector<int> low(32), high(32);
        for (int i = 0; i < 32; i++) {
            low[i] = i % 16, high[i] = 16 + i % 16;
        }
        llvm::Function *pshufb = llvm::Intrinsic::getDeclaration(&module_, llvm::Intrinsic::x86_avx2_pshuf_b);
        llvm::Value *from_low = b_.CreateCall(pshufb, {b_.CreateShuffleVector(table8, low), ctrl});
        llvm::Value *from_high = b_.CreateCall(pshufb, {b_.CreateShuffleVector(table8, high), ctrl});
        llvm::Value *upper = b_.CreateICmpUGT(ctrl, b_.CreateVectorSplat(32, b_.getInt8(15)));
        picked = b_.CreateSelect(upper, from_high, from_low);
    }
    return b_.CreateBitCast(picked, tt);
}

llvm::Value *CodeGen_LLVM::span_load(const Load *op) {
    Type t = op->type;
    int n = t.lanes(), h = n / 2;
    llvm::Type *et = mem_type(t.element_of());
    int bits = (int)et->getPrimitiveSizeInBits();
    bool plain = et->isIntegerTy() || et->isFloatingPointTy();
    // An index computed from loaded values (bilateral_grid's bin of each
    // pixel's intensity) is data: its lanes are seldom a short run, and the
    // run test would only be paid on top of the gather.
    if (h < 2 || !plain || op->index.type().element_of() != Int(32) || op->index.as<Ramp>() ||
        !permute_supported(n, bits) || reads_data(op->index)) {
        return nullptr;
    }
    llvm::Value *idx = codegen(op->index);
    llvm::Value *first = b_.CreateIntrinsic(llvm::Intrinsic::vector_reduce_smin, {idx->getType()}, {idx});
    llvm::Value *last = b_.CreateIntrinsic(llvm::Intrinsic::vector_reduce_smax, {idx->getType()}, {idx});
    llvm::Value *span = b_.CreateSub(last, first);
    // h - 1 <= span <= n - 1, as one unsigned comparison.
    llvm::Value *fits = b_.CreateICmpULE(b_.CreateSub(span, b_.getInt32(h - 1)), b_.getInt32(n - h));
    return branch_value(
        fits, true, op->name + "_span",
        [&]() -> llvm::Value * {
            llvm::Type *half = llvm::FixedVectorType::get(et, h);
            llvm::Value *host = sym(op->name + ".host");
            auto load_half = [&](llvm::Value *at) {
                llvm::Value *addr = b_.CreateInBoundsGEP(et, host, b_.CreateSExt(at, i64_));
                llvm::LoadInst *l = b_.CreateAlignedLoad(half, addr, llvm::Align(t.element_of().bytes()));
                l->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
                return l;
            };
            // [first, first + h) and [last - h + 1, last]: together the
            // whole run, as span + 1 <= n = 2h.
            llvm::Value *front = load_half(first);
            llvm::Value *back = load_half(b_.CreateSub(last, b_.getInt32(h - 1)));
            return pick_from_run(front, back, b_.CreateSub(idx, b_.CreateVectorSplat(n, first)), span);
        },
        [&] { return gather(op, idx); });
}

void CodeGen_LLVM::push_data_let(const std::string &name, const Expr &value) {
    data_lets_[name].push_back(value.type().is_vector() && reads_data(value));
}

void CodeGen_LLVM::pop_data_let(const std::string &name) {
    auto it = data_lets_.find(name);
    it->second.pop_back();
    if (it->second.empty()) {
        data_lets_.erase(it);
    }
}

bool CodeGen_LLVM::reads_data(const Expr &e) const {
    return expr_reads_memory(e) || expr_uses_var_if(e, [&](const std::string &v) {
               auto it = data_lets_.find(v);
               return it != data_lets_.end() && it->second.back();
           });
}

llvm::Value *CodeGen_LLVM::pick_from_run(llvm::Value *front, llvm::Value *back, llvm::Value *r, llvm::Value *span) {
    int h = (int)llvm::cast<llvm::FixedVectorType>(front->getType())->getNumElements(), n = 2 * h;
    std::vector<int> cat(n);
    for (int i = 0; i < n; i++) {
        cat[i] = i;
    }
    llvm::Value *table = b_.CreateShuffleVector(front, back, cat);
    // Element first + r is lane r of front when r < h, else lane
    // r - (span - h + 1) of back, which is lane r + n - 1 - span of table.
    llvm::Value *in_back = b_.CreateICmpSGE(r, b_.CreateVectorSplat(n, b_.getInt32(h)));
    llvm::Value *shift = b_.CreateVectorSplat(n, b_.CreateSub(b_.getInt32(n - 1), span));
    llvm::Value *at = b_.CreateSelect(in_back, b_.CreateAdd(r, shift), r);
    int bits = (int)table->getType()->getScalarSizeInBits();
    llvm::Type *it = llvm::FixedVectorType::get(llvm::IntegerType::get(ctx_, bits), n);
    return b_.CreateBitCast(permute(b_.CreateBitCast(table, it), at), table->getType());
}

} // namespace Internal
} // namespace Halide
