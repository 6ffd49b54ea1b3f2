// Sums of 16-element groups held by the first half of each warp (lanes 16-31 do other work).
__global__ void half_warp_sums(const float* __restrict__ x, float* __restrict__ sums, float* __restrict__ y,
                               int groups) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (warp >= groups) return;  // whole warps
    if (lane < 16) {
        float v = x[warp * 16 + lane];
        for (int offset = 8; offset > 0; offset >>= 1) v += __shfl_down_sync(0x0000ffff, v, offset);
        if (lane == 0) sums[warp] = v;
    } else {
        y[warp * 16 + lane - 16] = 0.0f;
    }
}

void half_warp_sums_launch(const float* x, float* sums, float* y, int groups) {
    half_warp_sums<<<(groups * 32 + 255) / 256, 256>>>(x, sums, y, groups);
}
