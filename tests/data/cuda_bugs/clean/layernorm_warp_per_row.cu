// LayerNorm forward, one warp per row of length C (llm.c style), float statistics.
__device__ __forceinline__ float warp_reduce_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    return __shfl_sync(0xffffffff, v, 0);
}

__global__ void layernorm_forward(float* __restrict__ out, float* __restrict__ mean, float* __restrict__ rstd,
                                  const float* __restrict__ inp, const float* __restrict__ weight,
                                  const float* __restrict__ bias, int N, int C) {
    int lane = threadIdx.x % 32;
    int idx = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (idx >= N) return;  // idx is the same for the 32 lanes of a warp
    const float* x = inp + (size_t)idx * C;
    float sum = 0.0f;
    for (int i = lane; i < C; i += 32) sum += x[i];
    float m = warp_reduce_sum(sum) / C;
    float var = 0.0f;
    for (int i = lane; i < C; i += 32) {
        float diff = x[i] - m;
        var += diff * diff;
    }
    float s = rsqrtf(warp_reduce_sum(var) / C + 1e-5f);
    float* o = out + (size_t)idx * C;
    for (int i = lane; i < C; i += 32) o[i] = s * (x[i] - m) * weight[i] + bias[i];
    if (lane == 0) {
        mean[idx] = m;
        rstd[idx] = s;
    }
}

void layernorm_forward_launch(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                              const float* bias, int N, int C) {
    const int block_size = 256;
    const int grid_size = (N * 32 + block_size - 1) / block_size;
    layernorm_forward<<<grid_size, block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
}
