// Thirteenth-set C++ workload (role of vcalls.cpp), C++14 so that clang 14's
// default dialect takes it: a floor-plan estimator.  Rooms are shapes
// (Rect, Circle, Triangle, LShape) implemented through a CRTP base
// (ShapeImpl<D>) under a virtual interface, cloned and deleted through base
// pointers (virtual deleting destructors); total_area() sums them through
// one virtual call site.  The plan is sorted with std::sort and
// std::stable_sort given plain function-pointer comparators (chosen by
// COUNT), so libstdc++'s sort templates, instantiated here, make the
// indirect calls; per-room metrics are read through a table of
// pointer-to-member functions (virtual and non-virtual); price rules are
// std::function objects (lambdas, a functor, a plain function) and
// report hooks are plain function pointers run by std::for_each.  A
// Meyers singleton (a static local with a guard) holds the material
// catalogue; a [[noreturn]] error path throws for rooms the catalogue lacks
// (on some COUNTs).  A global Auditor object is built before main (its
// constructor registers hooks) and destroyed after main, after the
// profile has been written; an __attribute__((constructor)) function also
// runs before main.  argv: COUNT.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// ---- shapes ----------------------------------------------------------------
struct Shape {
  virtual ~Shape() {}
  virtual double area() const = 0;
  virtual double perimeter() const = 0;
  virtual const char *kind() const = 0;
  virtual Shape *clone() const = 0;
  double weight() const { return area() * density; } // non-virtual
  double density = 1.0;
  int material = 0;
  std::string label;
};

template <class D> struct ShapeImpl : Shape {
  double area() const override { return static_cast<const D *>(this)->area_impl(); }
  double perimeter() const override { return static_cast<const D *>(this)->perimeter_impl(); }
  const char *kind() const override { return D::name; }
  Shape *clone() const override { return new D(static_cast<const D &>(*this)); }
  // CRTP-only helper: not virtual, resolved at compile time
  double aspect() const { return static_cast<const D *>(this)->span() / (1.0 + area()); }
};

struct Rect : ShapeImpl<Rect> {
  static const char *const name;
  double w, h;
  Rect(double w_, double h_) : w(w_), h(h_) {}
  double area_impl() const { return w * h; }
  double perimeter_impl() const { return 2 * (w + h); }
  double span() const { return w > h ? w : h; }
};
const char *const Rect::name = "rect";

struct Circle : ShapeImpl<Circle> {
  static const char *const name;
  double r;
  explicit Circle(double r_) : r(r_) {}
  double area_impl() const { return 3.14159265 * r * r; }
  double perimeter_impl() const { return 2 * 3.14159265 * r; }
  double span() const { return 2 * r; }
};
const char *const Circle::name = "circle";

struct Triangle : ShapeImpl<Triangle> {
  static const char *const name;
  double a, b, c;
  Triangle(double a_, double b_, double c_) : a(a_), b(b_), c(c_) {}
  double area_impl() const {
    double s = (a + b + c) / 2;
    double q = s * (s - a) * (s - b) * (s - c);
    return q > 0 ? std::sqrt(q) : 0.0;
  }
  double perimeter_impl() const { return a + b + c; }
  double span() const { return std::max(a, std::max(b, c)); }
};
const char *const Triangle::name = "triangle";

struct LShape : ShapeImpl<LShape> {
  static const char *const name;
  Rect big, notch;
  LShape(double w, double h, double nw, double nh) : big(w, h), notch(nw, nh) {}
  ~LShape() override { ++destroyed; }
  double area_impl() const { return big.area_impl() - notch.area_impl(); }
  double perimeter_impl() const { return big.perimeter_impl(); }
  double span() const { return big.span(); }
  static int destroyed;
};
const char *const LShape::name = "lshape";
int LShape::destroyed = 0;

__attribute__((noinline)) double total_area(const std::vector<std::unique_ptr<Shape>> &plan) {
  double sum = 0;
  for (const auto &s : plan) sum += s->area();
  return sum;
}

// ---- catalogue (static local with a guard) ---------------------------------
struct Material {
  std::string name;
  double price_per_m2;
  double density;
};

[[noreturn]] __attribute__((noinline, cold)) static void fail(const std::string &what, int code) {
  throw std::out_of_range(what + " #" + std::to_string(code));
}

static const std::vector<Material> &catalogue() {
  static const std::vector<Material> items = {
      {"oak", 42.5, 0.7}, {"tile", 18.0, 2.3}, {"carpet", 11.25, 0.4}, {"marble", 95.0, 2.7}};
  return items;
}

static const Material &material_of(const Shape &s) {
  const auto &cat = catalogue();
  if (__builtin_expect(s.material < 0 || s.material >= (int)cat.size(), 0))
    fail(std::string("no material for ") + s.kind(), s.material);
  return cat[s.material];
}

// ---- comparators as plain functions ------------------------------------------
static bool by_area(const std::unique_ptr<Shape> &x, const std::unique_ptr<Shape> &y) {
  return x->area() < y->area();
}
static bool by_perimeter_desc(const std::unique_ptr<Shape> &x, const std::unique_ptr<Shape> &y) {
  return x->perimeter() > y->perimeter();
}
static bool by_kind(const std::unique_ptr<Shape> &x, const std::unique_ptr<Shape> &y) {
  return std::string(x->kind()) < std::string(y->kind());
}
static bool by_label(const Shape *x, const Shape *y) { return x->label < y->label; }

// ---- pricing rules (std::function) and report hooks (function pointers) ------
struct Report {
  double total = 0, heaviest = 0;
  int rooms = 0, expensive = 0;
  std::map<std::string, int> kinds;
};
typedef void (*hook_fn)(Report &, const Shape &, double);
static void hook_total(Report &r, const Shape &, double price) { r.total += price; }
static void hook_heaviest(Report &r, const Shape &s, double) { r.heaviest = std::max(r.heaviest, s.weight()); }
static void hook_kinds(Report &r, const Shape &s, double) { r.kinds[s.kind()]++; }
static void hook_expensive(Report &r, const Shape &, double price) { r.expensive += price > 2000; }

struct Surcharge {
  double rate;
  double operator()(double p) const { return p * (1 + rate); }
};
static double round_to_5(double p) { return std::floor(p / 5 + 0.5) * 5; }

// ---- the auditor: built before main, destroyed after the profile is written --
struct Auditor {
  std::vector<hook_fn> hooks;
  int built_before_main = 0;
  Auditor() {
    hooks.push_back(hook_total);
    hooks.push_back(hook_kinds);
    built_before_main = 1;
  }
  ~Auditor() {
    // runs from __cxa_atexit after main returns
    for (size_t i = 0; i < hooks.size(); i++) built_before_main += (int)i;
  }
};
static Auditor auditor;
static int early_rooms;

__attribute__((constructor)) static void plan_defaults() { early_rooms = 3; }

// ---- metrics through pointers to members --------------------------------------
typedef double (Shape::*metric_fn)() const;
static const metric_fn metrics[] = {&Shape::area, &Shape::perimeter, &Shape::weight};

static Shape *make_room(int i, int count) {
  Shape *s;
  switch ((i * 7 + count) % 9) {
  case 0: case 4: case 8: s = new Rect(2 + i % 5, 3 + i % 4); break;
  case 1: case 5: s = new Circle(1 + (i % 3) * 0.5); break;
  case 2: s = new Triangle(3, 4, 5 + (i % 2)); break;
  default: s = new LShape(6 + i % 3, 5, 2, 1 + i % 2); break;
  }
  s->material = (i * 3 + count) % (count % 7 == 1 ? 5 : 4); // 4 is missing on some COUNTs
  s->label = std::string(s->kind()) + "-" + std::to_string((i * 37) % 101);
  return s;
}

int main(int argc, char **argv) {
  int count = argc > 1 ? std::atoi(argv[1]) : 50;
  int n = early_rooms + count / 6;
  std::vector<std::unique_ptr<Shape>> plan;
  for (int i = 0; i < n; i++) plan.emplace_back(make_room(i, count));

  // copies made through clone() and dropped through base pointers
  int clones = 0;
  for (int i = 0; i < n; i += 4) {
    std::unique_ptr<Shape> copy(plan[i]->clone());
    clones += copy->area() > 10;
  }

  bool (*cmp)(const std::unique_ptr<Shape> &, const std::unique_ptr<Shape> &) =
      count % 3 == 0 ? by_area : count % 3 == 1 ? by_perimeter_desc : by_kind;
  std::sort(plan.begin(), plan.end(), cmp);
  std::stable_sort(plan.begin(), plan.end(), by_kind);

  std::vector<const Shape *> labelled;
  for (const auto &s : plan) labelled.push_back(s.get());
  std::sort(labelled.begin(), labelled.end(), by_label);

  std::vector<std::function<double(double)>> rules;
  rules.push_back(Surcharge{0.08});
  if (count > 200) rules.push_back([](double p) { return p > 500 ? p * 0.95 : p; });
  rules.push_back([count](double p) { return p + (count % 10); });
  rules.push_back(round_to_5);

  std::vector<hook_fn> hooks = auditor.hooks;
  hooks.push_back(hook_heaviest);
  if (count % 2 == 0) hooks.push_back(hook_expensive);

  Report report;
  int missing = 0;
  double metric_sum = 0;
  for (const auto &s : plan) {
    metric_sum += (s.get()->*metrics[s->label.size() % 3])();
    try {
      const Material &m = material_of(*s);
      s->density = m.density;
      double price = s->area() * m.price_per_m2;
      for (const auto &rule : rules) price = rule(price);
      std::for_each(hooks.begin(), hooks.end(), [&](hook_fn h) { h(report, *s, price); });
      report.rooms++;
    } catch (const std::out_of_range &) {
      missing++;
    }
  }
  double aspect = 0;
  for (const auto &s : plan)
    if (const Rect *r = dynamic_cast<const Rect *>(s.get())) aspect += r->aspect();

  std::printf("%.2f %.2f %d %d %d %zu %s %.2f %d %.3f\n", total_area(plan), report.total,
              report.rooms, missing, report.expensive, report.kinds.size(),
              labelled.empty() ? "-" : labelled.front()->label.c_str(), metric_sum, clones, aspect);
  plan.clear();
  return LShape::destroyed < 0;
}
