// Adds a positional embedding of shape (T, C) to activations of shape (B, T, C).
__global__ void add_position(float* __restrict__ act, const float* __restrict__ pos,
                             int64_t B, int64_t T, int64_t C) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int total = B * T * C;
    if (idx < total) {
        int64_t tc = idx % (T * C);
        act[idx] += pos[tc];
    }
}

void add_position_launch(float* act, const float* pos, int64_t B, int64_t T, int64_t C) {
    int64_t n = B * T * C;
    unsigned int blocks = (unsigned int)((n + 255) / 256);
    add_position<<<blocks, 256>>>(act, pos, B, T, C);
}
