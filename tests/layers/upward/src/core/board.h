#pragma once
#include "core/types.h"
#include "protocol/messages.h"
