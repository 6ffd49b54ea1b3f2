// Complex magnitude: each thread turns one (re, im) pair into two outputs, |z| and arg z.
__global__ void polar_pairs(const float2* __restrict__ z, float* __restrict__ out, int n_out) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
    if (base < n_out) {
        float2 v = z[base / 2];
        out[base] = sqrtf(v.x * v.x + v.y * v.y);
        out[base + 1] = atan2f(v.y, v.x);
    }
}

void polar_pairs_launch(const float2* z, float* out, int n_out) {
    int threads = 256;
    int pairs = (n_out + 1) / 2;
    polar_pairs<<<(pairs + threads - 1) / threads, threads>>>(z, out, n_out);
}
