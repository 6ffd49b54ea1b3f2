// Bias add for a (B, T, OC) output: one thread per (b, t) row, looping over OC.
__global__ void add_bias_rows(float* __restrict__ out, const float* __restrict__ bias, int B, int T, int OC) {
    int bt = blockIdx.x * blockDim.x + threadIdx.x;
    if (bt >= B * T) return;
    int b = bt / T;
    int t = bt % T;
    for (int o = 0; o < OC; ++o) {
        out[b * T * OC + t * OC + o] += bias[o];
    }
}

void add_bias_rows_launch(float* out, const float* bias, int B, int T, int OC) {
    int threads = 128;
    add_bias_rows<<<(B * T + threads - 1) / threads, threads>>>(out, bias, B, T, OC);
}
