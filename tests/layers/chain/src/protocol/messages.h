#pragma once
#include "protocol/text.h"
