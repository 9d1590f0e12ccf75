// C++ on the tile: static constructors run in priority then definition order, virtual
// calls and new/delete work, and static destructors run at exit (after main's output).
#include <stdio.h>

static int order[4];
static int constructed;

extern "C" __attribute__((constructor(101))) void early_c_constructor()
{
    order[constructed++] = 0;
}

namespace {

struct Recorder {
    int id;
    explicit Recorder(int i) : id(i) { order[constructed++] = i; }
    ~Recorder() { printf("dtor %d\n", id); }
};

struct Shape {
    virtual ~Shape() = default;
    virtual int area() const = 0;
};

struct Square final : Shape {
    int side;
    explicit Square(int s) : side(s) {}
    int area() const override { return side * side; }
};

Recorder first(1);
Recorder second(2);

} // namespace

int main()
{
    Shape *shape = new Square(7);
    int area = shape->area();
    delete shape;
    printf("ctors %d %d %d area %d\n", order[0], order[1], order[2], area);
    bool ok = constructed == 3 && order[0] == 0 && order[1] == 1 && order[2] == 2 && area == 49;
    return ok ? 42 : 1;
}
