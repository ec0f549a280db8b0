// Expr's literal constructors: C++ numbers become immediates of the
// matching Halide type.
#include "Halide/Expr.h"

#include "Halide/Error.h"
#include "Halide/IR.h"

namespace Halide {

std::shared_ptr<const Internal::IRNode> Internal::shared_node(const IRNode *n) {
    std::shared_ptr<const IRNode> p = n->weak_from_this().lock();
    internal_assert(p) << "an IR node not owned by an Expr or Stmt (build nodes with their make functions)";
    return p;
}

using namespace Internal;

Expr::Expr(int8_t v) : Expr(IntImm::make(Int(8), v)) {}
Expr::Expr(int16_t v) : Expr(IntImm::make(Int(16), v)) {}
Expr::Expr(int32_t v) : Expr(IntImm::make(Int(32), v)) {}
Expr::Expr(int64_t v) : Expr(IntImm::make(Int(64), v)) {}
Expr::Expr(uint8_t v) : Expr(UIntImm::make(UInt(8), v)) {}
Expr::Expr(uint16_t v) : Expr(UIntImm::make(UInt(16), v)) {}
Expr::Expr(uint32_t v) : Expr(UIntImm::make(UInt(32), v)) {}
Expr::Expr(uint64_t v) : Expr(UIntImm::make(UInt(64), v)) {}
Expr::Expr(float v) : Expr(FloatImm::make(Float(32), v)) {}
Expr::Expr(double v) : Expr(FloatImm::make(Float(64), v)) {}
Expr::Expr(bool v) : Expr(UIntImm::make(Bool(), v ? 1 : 0)) {}
Expr::Expr(const std::string &s) : Expr(StringImm::make(s)) {}

} // namespace Halide
