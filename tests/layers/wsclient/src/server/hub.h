#pragma once
#include "core/types.h"
#include "wsclient/client.h"
