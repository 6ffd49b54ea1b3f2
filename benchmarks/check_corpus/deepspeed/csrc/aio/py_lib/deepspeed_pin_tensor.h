// SPDX-License-Identifier: Apache-2.0

// DeepSpeed Team

/*
Compatibility include: pin-tensor manager lives under csrc/pin_memory/.
*/

#pragma once

#include "../../pin_memory/deepspeed_pin_tensor.h"
