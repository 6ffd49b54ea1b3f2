// Normalise the last reduction: out[c] = (sum[c] / count - mean[c]) * inv_std[c]
__global__ void finalize_channel_stats(const float* __restrict__ sum, const float* __restrict__ mean,
                                       const float* __restrict__ inv_std, float* __restrict__ out,
                                       int channels, float count) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float m = mean[c];
    if (c < channels) {
        out[c] = (sum[c] / count - m) * inv_std[c];
    }
}

void finalize_channel_stats_launch(const float* sum, const float* mean, const float* inv_std, float* out,
                                   int channels, float count) {
    int threads = 128;
    finalize_channel_stats<<<(channels + threads - 1) / threads, threads>>>(sum, mean, inv_std, out,
                                                                           channels, count);
}
