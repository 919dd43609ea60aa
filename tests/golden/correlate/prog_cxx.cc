// C++ test program for raw-profile correlation: mangled names, templates, a local
// function and a virtual call.  clang 22 needs -mllvm -disable-vp with correlation
// here: with value profiling it crashes compiling (-profile-correlate=debug-info) or
// the program crashes at exit (=binary).
#include <cstdio>

namespace ns {
template <typename T> struct Box {
  T v;
  T __attribute__((noinline)) get() const { return v + 1; }
};
} // namespace ns

static int __attribute__((noinline)) helper(int x) { return x * 3; }

struct Base {
  virtual int f(int) = 0;
  virtual ~Base() {}
};
struct D1 : Base {
  int f(int x) override { return x + 1; }
};

int main(int argc, char **) {
  ns::Box<int> b{argc};
  ns::Box<long> c{argc};
  D1 d;
  Base *p = &d;
  std::printf("%d %ld %d\n", b.get(), c.get(), helper(argc) + p->f(argc));
  return 0;
}
