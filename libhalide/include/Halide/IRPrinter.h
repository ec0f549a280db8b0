// Readable text for the IR: expressions infix, statements as an indented
// loop nest (two spaces per level). Meant for people (debug dumps, test
// failure messages), not for parsing back.
//
//   for (y, 0, 20) {
//     parallel for (x, 0, 10) {
//       f(x, y) = ((x + y) * 2)
//     }
//   }
#ifndef HALIDE_IR_PRINTER_H
#define HALIDE_IR_PRINTER_H

#include <ostream>

#include "Halide/IR.h"
#include "Halide/IRVisitor.h"

namespace Halide {

std::ostream &operator<<(std::ostream &stream, const Expr &e);
std::ostream &operator<<(std::ostream &stream, const Type &t);
std::ostream &operator<<(std::ostream &stream, MemoryType t);

namespace Internal {

std::ostream &operator<<(std::ostream &stream, const Stmt &s);
std::ostream &operator<<(std::ostream &stream, ForType t);

class IRPrinter : public IRVisitor {
public:
    explicit IRPrinter(std::ostream &s) : stream(s) {}

    // An expression (no newline) or a statement (one line per statement,
    // each ending with a newline, indented from the current level).
    void print(const Expr &e);
    void print(const Stmt &s);

    void visit(const IntImm *) override;
    void visit(const UIntImm *) override;
    void visit(const FloatImm *) override;
    void visit(const StringImm *) override;
    void visit(const Cast *) override;
    void visit(const Variable *) override;
    void visit(const Add *) override;
    void visit(const Sub *) override;
    void visit(const Mul *) override;
    void visit(const Div *) override;
    void visit(const Mod *) override;
    void visit(const Min *) override;
    void visit(const Max *) override;
    void visit(const EQ *) override;
    void visit(const NE *) override;
    void visit(const LT *) override;
    void visit(const LE *) override;
    void visit(const GT *) override;
    void visit(const GE *) override;
    void visit(const And *) override;
    void visit(const Or *) override;
    void visit(const Not *) override;
    void visit(const Select *) override;
    void visit(const Load *) override;
    void visit(const Ramp *) override;
    void visit(const Broadcast *) override;
    void visit(const Call *) override;
    void visit(const Let *) override;
    void visit(const LetStmt *) override;
    void visit(const AssertStmt *) override;
    void visit(const For *) override;
    void visit(const Provide *) override;
    void visit(const Realize *) override;
    void visit(const Store *) override;
    void visit(const Allocate *) override;
    void visit(const Block *) override;
    void visit(const IfThenElse *) override;
    void visit(const Evaluate *) override;
    void visit(const ProducerConsumer *) override;
    void visit(const Atomic *) override;

protected:
    std::ostream &stream;
    int indent_level = 0;

    void do_indent();
    void print_infix(const Expr &a, const char *op, const Expr &b);
    void print_call(const char *name, const Expr &a, const Expr &b);
    void print_list(const std::vector<Expr> &es);
    // Prints "{", the body one level deeper, then the indented "}" with no
    // newline after it.
    void print_braced_body(const Stmt &body);
};

} // namespace Internal
} // namespace Halide

#endif
