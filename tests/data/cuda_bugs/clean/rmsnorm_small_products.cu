// RMSNorm of (B, T, C) activations: one warp per (b, t) row; indices are bt * C + c.
__global__ void rmsnorm_forward(float* __restrict__ out, const float* __restrict__ inp,
                                const float* __restrict__ weight, int B, int T, int C) {
    int lane = threadIdx.x % 32;
    int bt = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (bt >= B * T) return;
    float ss = 0.0f;
    for (int c = lane; c < C; c += 32) {
        float v = inp[bt * C + c];
        ss += v * v;
    }
    for (int offset = 16; offset > 0; offset /= 2) ss += __shfl_xor_sync(0xffffffff, ss, offset);
    float scale = rsqrtf(ss / C + 1e-6f);
    for (int c = lane; c < C; c += 32) out[bt * C + c] = inp[bt * C + c] * scale * weight[c];
}

void rmsnorm_forward_launch(float* out, const float* inp, const float* weight, int B, int T, int C) {
    int threads = 256;
    int warps_per_block = threads / 32;
    rmsnorm_forward<<<(B * T + warps_per_block - 1) / warps_per_block, threads>>>(out, inp, weight, B, T, C);
}
