// Per-warp rotation: lane l takes the value of lane (l + 1) % 32 through the warp's shared slots.
__global__ void rotate_lanes(const float* __restrict__ x, float* __restrict__ y, int n) {
    __shared__ float slots[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int base = threadIdx.x - lane;
    slots[threadIdx.x] = (i < n) ? x[i] : 0.0f;
    __syncwarp();
    float next = slots[base + ((lane + 1) & 31)];
    if (i < n) y[i] = next;
}

void rotate_lanes_launch(const float* x, float* y, int n) {
    rotate_lanes<<<(n + 255) / 256, 256>>>(x, y, n);
}
