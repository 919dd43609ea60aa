// Seventh C++ workload: deep and wide virtual dispatch.  A chain of twelve
// class templates, each level overriding only some methods (so targets are
// inline functions of ancestors), thirty-six classes behind one virtual call
// site in total_area(), a second base reached through non-virtual and
// covariant-return thunks (targets with profile records of their own), a
// virtual base and a final class over it, virtual calls through pointers to
// member functions, virtual destructors, exceptions thrown by libstdc++ and
// by this file caught as std::exception so that what() goes to libstdc++
// (targets outside the program) or to inline overrides here, a site calling
// thirty libm functions through pointers (unknown targets), std::function,
// a stream writing through libstdc++'s virtual overflow, final classes the
// optimizer devirtualizes, empty virtual functions, a start-up constructor
// that raises the runtime's per-site limit to 40 with forty cold template
// instantiations of memory operations for value nodes, and classes,
// members and instantiations no run reaches.  argv: COUNT.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace deep {
struct Shape {
  virtual ~Shape() {}
  virtual double area() const = 0;
  virtual double scale(double k) const { return area() * k; }
  virtual int depth() const { return 0; }
  virtual void touch() {}
  virtual int never() const { return -1; }
};

template <int N> struct Level : Level<N - 1> {
  double area() const override {
    if (N % 3 == 0)
      return Level<N - 1>::area() + N;
    return Level<N - 1>::area() * 1.01;
  }
  int depth() const override { return N % 4 == 0 ? N : Level<N - 1>::depth(); }
};
template <> struct Level<0> : Shape {
  double area() const override { return 1.0; }
};
// levels that override scale() too
template <int N> struct Scaled : Level<N> {
  double scale(double k) const override { return k * N - Level<N>::area(); }
};

// thirty-six shapes behind one call site
template <int K> struct Wide : Shape {
  double side = K + 1;
  double area() const override {
    if (K % 2)
      return side * side;
    return side * (K % 5 + 1);
  }
  void touch() override { side += K % 3 ? 0.5 : -0.25; }
};

struct Printable {
  virtual ~Printable() {}
  virtual int print_width() const { return 4; }
  virtual Printable *self() { return this; }
};
// Both's Printable part is a second base: calls through Printable* go to thunks
struct Both : Shape, Printable {
  double area() const override { return 2.5; }
  int print_width() const override { return 9; }
  Both *self() override { return this; } // covariant, adjusting thunk
};
struct Other : Printable {
  int print_width() const override { return 1; }
};

// a virtual base: virtual thunks
struct Root {
  virtual ~Root() {}
  virtual int id() const { return 1; }
};
struct Left : virtual Root {
  int id() const override { return 2; }
};
struct Right : virtual Root {};
struct Join final : Left, Right {
  int id() const override { return 3; }
};

struct Tight final : Shape {
  double area() const override { return 0.5; }
};

struct Unused : Shape {
  double area() const override { return 99; }
  int never() const override { return 99; }
};

struct Failure : std::runtime_error {
  explicit Failure(const char *m) : std::runtime_error(m) {}
  const char *what() const noexcept override { return "deep::Failure"; }
};
struct Quiet : std::exception {
  const char *what() const noexcept override { return "quiet"; }
};
} // namespace deep

// the runtime keeps up to 40 values per site; cold sites give it value nodes
__attribute__((constructor(101))) static void raise_vp_limit() {
  setenv("LLVM_VP_MAX_NUM_VALS_PER_SITE", "40", 1);
}
template <int K> struct Cold {
  static long pad(char *d, const char *s, size_t n, long (*f)(long)) {
    if (n == 0)
      return 0;
    std::memcpy(d, s, n + K);
    std::memset(d + 1, K, n * 2 + K);
    std::memmove(d + 2, d, n / 2 + K);
    std::memcpy(d + 3, s, n * 3 + K);
    std::memset(d, 0, n ^ K);
    std::memcpy(d + 4, s, n * 5 + K);
    return f(static_cast<long>(n)) + f(K);
  }
};
template <int K> struct ColdTable {
  static void fill(std::vector<long (*)(char *, const char *, size_t, long (*)(long))> &v) {
    ColdTable<K - 1>::fill(v);
    v.push_back(&Cold<K>::pad);
  }
};
template <> struct ColdTable<0> {
  static void fill(std::vector<long (*)(char *, const char *, size_t, long (*)(long))> &v) {
    v.push_back(&Cold<0>::pad);
  }
};

template <int K> static void add_wide(std::vector<deep::Shape *> &v, int n);
template <> void add_wide<-1>(std::vector<deep::Shape *> &, int) {}
template <int K> static void add_wide(std::vector<deep::Shape *> &v, int n) {
  add_wide<K - 1>(v, n);
  if ((K * 7 + n) % 5 != 0 || K < 3)
    v.push_back(new deep::Wide<K>);
}

__attribute__((noinline)) double total_area(const std::vector<deep::Shape *> &shapes) {
  double sum = 0;
  for (deep::Shape *s : shapes) {
    sum += s->area();
    s->touch();
  }
  return sum;
}

__attribute__((noinline)) double scale_all(const std::vector<deep::Shape *> &shapes, double k) {
  double sum = 0;
  for (deep::Shape *s : shapes)
    sum += s->scale(k) + s->depth();
  return sum;
}

__attribute__((noinline)) int widths(const std::vector<deep::Printable *> &ps) {
  int w = 0;
  for (deep::Printable *p : ps)
    w += p->self()->print_width();
  return w;
}

__attribute__((noinline)) int ids(const std::vector<deep::Root *> &rs) {
  int acc = 0;
  for (deep::Root *r : rs)
    acc += r->id();
  return acc;
}

typedef double (deep::Shape::*shape_fn)(double) const;
__attribute__((noinline)) double via_member(deep::Shape *s, shape_fn f, double k) {
  return (s->*f)(k);
}

typedef double (*math_fn)(double);
#define M(f) static_cast<math_fn>(std::f)
static const math_fn maths[] = {
    M(sin),   M(cos),   M(tan),   M(asin),  M(acos),  M(atan),   M(sinh),  M(cosh),
    M(tanh),  M(exp),   M(log),   M(log10), M(sqrt),  M(cbrt),   M(fabs),  M(floor),
    M(ceil),  M(round), M(trunc), M(rint),  M(nearbyint), M(expm1), M(log1p), M(exp2),
    M(log2),  M(erf),   M(erfc),  M(logb),  M(asinh), M(atan)};
static double twice(double x) { return x * 2; }
inline double halve(double x) { return x / 2; }
static const math_fn local_maths[] = {twice, halve};

__attribute__((noinline)) double math_site(int k, double x) {
  math_fn f = k < 30 ? maths[k] : local_maths[k & 1];
  return f(x);
}

__attribute__((noinline)) int throw_one(int i, std::vector<int> &v) {
  switch (i % 7) {
  case 0: return v.at(v.size() + static_cast<size_t>(i)); // std::out_of_range
  case 1: return std::stoi("x" + std::to_string(i));       // std::invalid_argument
  case 2: throw deep::Failure("f");
  case 3: throw deep::Quiet();
  case 4: {
    std::function<int(int)> empty;
    return empty(i); // std::bad_function_call
  }
  case 5: throw std::logic_error("logic");
  default: return i;
  }
}

__attribute__((noinline)) long what_site(int n) {
  std::vector<int> v(3, 1);
  long len = 0;
  for (int i = 0; i < n; i++) {
    try {
      len += throw_one(i, v);
    } catch (const std::exception &e) {
      len += static_cast<long>(std::string(e.what()).size());
    }
  }
  return len;
}

__attribute__((noinline)) size_t stream_out(int n) {
  std::ostringstream os;
  for (int i = 0; i < n; i++)
    os << i << (i % 3 ? ',' : ';');
  return os.str().size();
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<deep::Shape *> shapes;
  add_wide<35>(shapes, n);
  for (int i = 0; i < n / 30; i++) {
    shapes.push_back(new deep::Level<12>);
    shapes.push_back(new deep::Level<7>);
    shapes.push_back(new deep::Scaled<9>);
    shapes.push_back(new deep::Scaled<4>);
    shapes.push_back(new deep::Both);
    shapes.push_back(new deep::Tight);
  }
  double acc = 0;
  for (int r = 0; r < 4; r++)
    acc += total_area(shapes);
  acc += scale_all(shapes, 1.5);
  std::vector<deep::Printable *> ps;
  for (int i = 0; i < n / 4; i++)
    ps.push_back(i % 3 ? static_cast<deep::Printable *>(new deep::Both) : new deep::Other);
  acc += widths(ps);
  std::vector<deep::Root *> rs;
  for (int i = 0; i < n / 5; i++)
    rs.push_back(i % 4 == 0 ? static_cast<deep::Root *>(new deep::Join)
                 : i % 4 == 1 ? static_cast<deep::Root *>(new deep::Left)
                 : i % 4 == 2 ? static_cast<deep::Root *>(new deep::Right)
                              : new deep::Root);
  acc += ids(rs);
  static const shape_fn members[] = {&deep::Shape::scale};
  for (size_t i = 0; i < shapes.size(); i += 3)
    acc += via_member(shapes[i], members[0], 0.25);
  for (int i = 0; i < n; i++)
    acc += math_site((i * 7 + n) % (n > 200 ? 32 : 20), 0.5 + (i % 10) * 0.04);
  acc += static_cast<double>(what_site(n / 3));
  acc += static_cast<double>(stream_out(n));
  deep::Tight tight;
  acc += tight.area();
  std::vector<long (*)(char *, const char *, size_t, long (*)(long))> cold;
  ColdTable<39>::fill(cold);
  if (n > 100000) {
    deep::Unused u;
    acc += u.never() + shapes[0]->never();
    static char buf[1 << 16];
    acc += cold[n % 40](buf, buf + 100, static_cast<size_t>(n % 64), std::labs);
  }
  for (deep::Shape *s : shapes)
    delete s;
  for (deep::Printable *p : ps)
    delete p;
  for (deep::Root *r : rs)
    delete r;
  std::printf("%.3f\n", acc);
  return 0;
}
