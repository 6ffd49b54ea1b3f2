// Dot products of short rows (len <= 32): one warp per row, lanes past the row length idle.
__global__ void short_row_dot(const float* __restrict__ a, const float* __restrict__ b,
                              float* __restrict__ out, int rows, int len) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    if (lane < len) {
        float v = a[warp * len + lane] * b[warp * len + lane];
        for (int offset = 16; offset > 0; offset /= 2) {
            v += __shfl_down_sync(0xffffffff, v, offset);
        }
        if (lane == 0) out[warp] = v;
    }
}

void short_row_dot_launch(const float* a, const float* b, float* out, int rows, int len) {
    int threads = 256;
    int blocks = (rows * 32 + threads - 1) / threads;
    short_row_dot<<<blocks, threads>>>(a, b, out, rows, len);
}
