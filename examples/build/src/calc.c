#include "calc.h"

long
calc(long a, char op, long b)
{
	return op == '*' || op == 'x' ? mul(a, b) : add(a, b);
}
