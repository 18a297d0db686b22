// Package splitmix holds the splitmix64 mixer (Steele, Lea, Flood), the
// one 64-bit hash that seeds the random sources of datagen and genfens
// and keys positions in the trainer.
package splitmix

// Mix is the splitmix64 finaliser: a bijective, well-avalanched mix of x.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
