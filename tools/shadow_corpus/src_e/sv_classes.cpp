// Fifth C++ workload: multiple and virtual inheritance (objects with
// several vtables, this-adjusting and virtual thunks), 84 classes generated
// from a template over two pure virtual interfaces, classes in an anonymous
// namespace (internal vtables) mixed with external ones, virtual
// destructors called through either base, a diamond through virtual bases,
// virtual calls at four sites whose class mix depends on COUNT, a virtual
// call through a secondary base pointer, and a class no run creates.
// argv: COUNT.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() {}
  virtual long area(long k) const = 0;
};
struct Named {
  virtual ~Named() {}
  virtual int tag() const = 0;
  virtual long weigh(long x) const { return x + tag(); }
};

template <int N> struct Gen : Shape, Named {
  long area(long k) const override { return k % (N + 2) ? k * (N % 7 + 1) : k / (N + 1); }
  int tag() const override { return N * 3 % 17; }
  ~Gen() override {}
};
template <int N> struct Odd : Gen<N> {
  long weigh(long x) const override { return x * 2 - N; }
};

namespace {
struct Local : Shape {
  long area(long k) const override { return k ^ 0x3c; }
};
struct LocalNamed : Named, Shape {
  int tag() const override { return 99; }
  long area(long k) const override { return k - 1; }
};
} // namespace

// diamond through virtual bases
struct Root {
  virtual ~Root() {}
  virtual long val(long x) const { return x; }
};
struct Left : virtual Root {
  long val(long x) const override { return x + 1; }
  virtual long left_only(long x) const { return x * 3; }
};
struct Right : virtual Root {
  virtual long right_only(long x) const { return x * 5; }
};
struct Both : Left, Right {
  long val(long x) const override { return x + 2; }
  long right_only(long x) const override { return x * 7 % 1009; }
};
struct Unused : Left, Right {
  long val(long x) const override { return -x; }
};

template <int N> struct Reg {
  static void add(std::vector<Shape *> &s, std::vector<Named *> &n) {
    Reg<N - 1>::add(s, n);
    if (N % 4 == 3) {
      Odd<N> *o = new Odd<N>;
      s.push_back(o);
      n.push_back(o);
    } else {
      Gen<N> *g = new Gen<N>;
      s.push_back(g);
      n.push_back(g);
    }
  }
};
template <> struct Reg<0> {
  static void add(std::vector<Shape *> &s, std::vector<Named *> &n) {
    Gen<0> *g = new Gen<0>;
    s.push_back(g);
    n.push_back(g);
  }
};

__attribute__((noinline)) long site_area(const std::vector<Shape *> &v, int from, int step, long k) {
  long acc = 0;
  for (size_t i = (size_t)from; i < v.size(); i += (size_t)step)
    acc += v[i]->area(k + (long)i);
  return acc;
}
__attribute__((noinline)) long site_named(const std::vector<Named *> &v, int from, int step) {
  long acc = 0;
  for (size_t i = (size_t)from; i < v.size(); i += (size_t)step)
    acc += v[i]->weigh((long)i) + v[i]->tag();
  return acc;
}
__attribute__((noinline)) long site_diamond(Root *r, Right *rt, long x) { return r->val(x) + rt->right_only(x); }

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<Shape *> shapes;
  std::vector<Named *> names;
  Reg<83>::add(shapes, names);
  Local loc;
  LocalNamed ln;
  shapes.push_back(&loc);
  shapes.push_back(&ln);
  names.push_back(&ln);
  long acc = 0;
  int step = n % 7 + 1, from = n % 5;
  for (int r = 0; r < 3; r++) {
    acc += site_area(shapes, from, step, n + r);
    acc += site_named(names, (from + 2) % 5, step + 2);
  }
  Both b;
  Left l;
  std::unique_ptr<Root> owned(n > 200 ? static_cast<Root *>(new Both) : static_cast<Root *>(new Left));
  for (int i = 0; i < n; i++) {
    acc += site_diamond(i % 3 ? static_cast<Root *>(&b) : static_cast<Root *>(&l), &b, i);
    acc += owned->val(i) + static_cast<Left &>(b).left_only(i);
  }
  for (size_t i = 0; i < 84; i++) {
    if (i % 2)
      delete names[i];   // virtual destructor through the secondary base
    else
      delete shapes[i];
  }
  if (n > 100000) {
    Unused u;
    acc += u.val(acc);
  }
  std::printf("%ld\n", acc % 1000003);
  return 0;
}
