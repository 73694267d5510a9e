#include "calc.h"

long
mul(long a, long b)
{
	return a * b;
}
