// Row softmax of an N x C matrix: one block per row, any C.
__global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, int C) {
    __shared__ float red[32];
    const float* row = x + (size_t)blockIdx.x * C;
    float* out = y + (size_t)blockIdx.x * C;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;

    float m = -INFINITY;
    for (int j = threadIdx.x; j < C; j += blockDim.x) m = fmaxf(m, row[j]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    if (lane == 0) red[warp] = m;
    __syncthreads();
    m = (lane < warps) ? red[lane] : -INFINITY;
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    __syncthreads();  // every warp has read red before it is reused

    float s = 0.0f;
    for (int j = threadIdx.x; j < C; j += blockDim.x) s += __expf(row[j] - m);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    s = (lane < warps) ? red[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);

    float inv = 1.0f / s;
    for (int j = threadIdx.x; j < C; j += blockDim.x) out[j] = __expf(row[j] - m) * inv;
}

void softmax_rows_launch(const float* x, float* y, int N, int C) {
    softmax_rows<<<N, 256>>>(x, y, C);
}
