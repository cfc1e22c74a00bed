#pragma once
#include "core/board.h"
