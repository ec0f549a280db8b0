// Expr and Stmt: reference-counted handles to immutable IR nodes.
//
// Every node kind is listed once, in IRNodes.def; IR.h defines their fields.
#ifndef HALIDE_EXPR_H
#define HALIDE_EXPR_H

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "Halide/Type.h"

namespace Halide {
namespace Internal {

enum class IRNodeType {
#define HALIDE_IR_NODE(name) name,
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE
};

class IRVisitor;

// Nodes are always owned by shared_ptrs (the handles below), so a handle can
// be made again from a plain node pointer (Expr(op) inside a visit).
struct IRNode : std::enable_shared_from_this<IRNode> {
    explicit IRNode(IRNodeType t) : node_type(t) {}
    virtual ~IRNode() = default;
    // v->visit(this) for this node's kind (as IRVisitor::include would).
    void accept(IRVisitor *v) const;
    const IRNodeType node_type;
};

// The shared handle of a node owned by one (an internal error otherwise).
std::shared_ptr<const IRNode> shared_node(const IRNode *n);

struct BaseExprNode : IRNode {
    BaseExprNode(IRNodeType t, Type ty) : IRNode(t), type(ty) {}
    Type type;
};

struct BaseStmtNode : IRNode {
    explicit BaseStmtNode(IRNodeType t) : IRNode(t) {}
};

// A handle to a node of kind N (shared, never mutated after construction).
template <typename Base> class IRHandle {
public:
    IRHandle() = default;
    IRHandle(std::shared_ptr<const Base> p) : ptr_(std::move(p)) {}
    bool defined() const { return ptr_ != nullptr; }
    // Visits the node (nothing if undefined), as upstream's IRHandle::accept.
    void accept(IRVisitor *v) const {
        if (ptr_) {
            ptr_->accept(v);
        }
    }
    const Base *get() const { return ptr_.get(); }
    const Base *operator->() const { return ptr_.get(); }
    bool same_as(const IRHandle &other) const { return ptr_ == other.ptr_; }
    // The node as kind T, or nullptr if it is another kind.
    template <typename T> const T *as() const {
        return ptr_ && ptr_->node_type == T::kind ? static_cast<const T *>(ptr_.get()) : nullptr;
    }

protected:
    std::shared_ptr<const Base> ptr_;
};

} // namespace Internal

struct float16_t;
struct bfloat16_t;

// An expression. Integer and float literals convert implicitly: an int
// becomes an Int(32) constant, a float a Float(32), a double a Float(64).
class Expr : public Internal::IRHandle<Internal::BaseExprNode> {
public:
    Expr() = default;
    Expr(std::shared_ptr<const Internal::BaseExprNode> p) : IRHandle(std::move(p)) {}
    // The handle of a node (the same node: same_as the handle it came from).
    Expr(const Internal::BaseExprNode *n)
        : IRHandle(n ? std::static_pointer_cast<const Internal::BaseExprNode>(Internal::shared_node(n)) : nullptr) {}
    Expr(int8_t v);
    Expr(int16_t v);
    Expr(int32_t v);
    Expr(int64_t v);
    Expr(uint8_t v);
    Expr(uint16_t v);
    Expr(uint32_t v);
    Expr(uint64_t v);
    Expr(float v);
    Expr(double v);
    Expr(bool v);
    // Any other pointer would otherwise convert to bool and become the
    // constant `true` without a word.
    template <typename T, typename = std::enable_if_t<!std::is_base_of<Internal::BaseExprNode, T>::value>>
    Expr(const T *) = delete;
    // A string constant (StringImm, of type Handle), as upstream's: implicit
    // from std::string, explicit from a string literal (Expr("text")).
    Expr(const std::string &s);
    explicit Expr(const char *s) : Expr(std::string(s)) {}
    // Float(16) / BFloat(16) constants (Float16.h).
    explicit Expr(float16_t v);
    explicit Expr(bfloat16_t v);
    Type type() const { return get()->type; }
};

// Where a Func's storage lives (Func::store_in). Auto lets the compiler
// choose (on CPU targets: the heap). On CPU targets Heap is halide_malloc'd
// memory, Stack a stack allocation, Register a stack allocation of constant
// size that LLVM may keep in registers (a size that is not a constant is an
// error); GPUShared, GPUTexture, LockedCache and VTCM name memories of GPU
// and Hexagon targets and mean the heap on a CPU target, as upstream's;
// AMXTile holds the tiles of an AMX matrix multiply and is refused (there
// is no AMX code generation).
enum class MemoryType { Auto, Heap, Stack, Register, GPUShared, GPUTexture, LockedCache, VTCM, AMXTile };

namespace Internal {

class Stmt : public IRHandle<BaseStmtNode> {
public:
    Stmt() = default;
    Stmt(std::shared_ptr<const BaseStmtNode> p) : IRHandle(std::move(p)) {}
    Stmt(const BaseStmtNode *n)
        : IRHandle(n ? std::static_pointer_cast<const BaseStmtNode>(shared_node(n)) : nullptr) {}
};

} // namespace Internal
} // namespace Halide

#endif
