// Byte table lookups: a vector of 8-bit values loaded at the indices
// int32(v), v a uint8 vector (a 256-entry table such as a gamma curve or a
// histogram-equalization map applied to 8-bit pixels). Without help this
// is a gather, one scalar load and one lane insert per pixel. On x86 with
// SSSE3, pshufb looks up 16 lanes (32 with AVX2) at once in a 16-byte
// register, so the 256 bytes are read as 16 rows of 16: each row is looked
// up at the index's low four bits and kept where the high four bits name
// that row. The rows are loop-invariant loads that LLVM hoists.
#include "codegen/CodeGen_LLVM_Internal.h"

#include <sstream>
#include <vector>

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

void CodeGen_LLVM::set_target_features(const std::string &llvm_features) {
    std::stringstream items(llvm_features);
    std::string item;
    x86_ = {};
    while (std::getline(items, item, ',')) {
        x86_.ssse3 = x86_.ssse3 || item == "+ssse3";
        x86_.avx2 = x86_.avx2 || item == "+avx2";
        x86_.avx512f = x86_.avx512f || item == "+avx512f";
        x86_.avx512bw = x86_.avx512bw || item == "+avx512bw";
        x86_.avx512vl = x86_.avx512vl || item == "+avx512vl";
        x86_.avx512vbmi = x86_.avx512vbmi || item == "+avx512vbmi";
    }
    pshufb_lanes_ = x86_.avx2 ? 32 : x86_.ssse3 ? 16 : 0;
}

llvm::Value *CodeGen_LLVM::byte_table_lookup(const Load *op) {
    Type t = op->type;
    const Cast *c = op->index.as<Cast>();
    if (!pshufb_lanes_ || t.bits() != 8 || t.is_float() || t.lanes() % 16 != 0 || !c ||
        c->value.type() != UInt(8, t.lanes())) {
        return nullptr;
    }
    // Every index is in [0, 255] and bounds inference sized the buffer for
    // the indices used, so the whole table is there to read.
    int width = t.lanes() % pshufb_lanes_ == 0 ? pshufb_lanes_ : 16;
    llvm::Intrinsic::ID shuffle_id =
        width == 32 ? llvm::Intrinsic::x86_avx2_pshuf_b : llvm::Intrinsic::x86_ssse3_pshuf_b_128;
    llvm::Function *pshufb = llvm::Intrinsic::getDeclaration(&module_, shuffle_id);
    auto *row_type = llvm::FixedVectorType::get(i8_, 16);
    std::vector<int> twice(width);
    for (int i = 0; i < width; i++) {
        twice[i] = i % 16;
    }
    std::vector<llvm::Value *> rows;
    for (int k = 0; k < 16; k++) {
        llvm::LoadInst *row = b_.CreateAlignedLoad(row_type, element_address(op->name, 16 * k, i8_), llvm::Align(1));
        row->setMetadata(llvm::LLVMContext::MD_tbaa, buffer_tbaa(op->name));
        rows.push_back(width == 16 ? static_cast<llvm::Value *>(row) : b_.CreateShuffleVector(row, row, twice));
    }
    llvm::Value *index = codegen(c->value);
    llvm::Value *low = b_.CreateAnd(index, b_.CreateVectorSplat(t.lanes(), b_.getInt8(15)));
    llvm::Value *high = b_.CreateLShr(index, b_.CreateVectorSplat(t.lanes(), b_.getInt8(4)));
    std::vector<llvm::Value *> parts;
    for (int first = 0; first < t.lanes(); first += width) {
        std::vector<int> lanes(width);
        for (int i = 0; i < width; i++) {
            lanes[i] = first + i;
        }
        llvm::Value *lo = b_.CreateShuffleVector(low, lanes), *hi = b_.CreateShuffleVector(high, lanes);
        llvm::Value *part = llvm::Constant::getNullValue(rows[0]->getType());
        for (int k = 0; k < 16; k++) {
            llvm::Value *in_row = b_.CreateICmpEQ(hi, b_.CreateVectorSplat(width, b_.getInt8(k)));
            part = b_.CreateSelect(in_row, b_.CreateCall(pshufb, {rows[k], lo}), part);
        }
        parts.push_back(part);
    }
    llvm::Value *result = concat_vectors(parts);
    return from_memory(result, t);
}

} // namespace Internal
} // namespace Halide
