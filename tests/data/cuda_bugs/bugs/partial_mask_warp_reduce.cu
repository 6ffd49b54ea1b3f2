// Row sums of a rows x 32 matrix: one warp per row.
__global__ void row_sum32(const float* __restrict__ x, float* __restrict__ out, int rows) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float v = x[row * 32 + lane];
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffff, v, offset);
    }
    if (lane == 0) out[row] = v;
}

void row_sum32_launch(const float* x, float* out, int rows) {
    int threads = 256;
    row_sum32<<<(rows * 32 + threads - 1) / threads, threads>>>(x, out, rows);
}
