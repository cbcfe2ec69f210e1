#!/usr/bin/env python3
"""Regenerates the demo data in this folder (deterministic: same seed, same files).

Run from the repository root: python3 assets/demo/generate.py
The files are embedded into the binary by src/demo/seed.rs; nothing reads them at run time.
"""
import json, random, uuid, datetime, os

R = random.Random(20261122)
def uid():
    return str(uuid.UUID(int=R.getrandbits(128), version=4))

HERE = os.path.dirname(os.path.abspath(__file__))

CLUBS = [
    ("Robotics Club", "ชุมนุมหุ่นยนต์", "Build and program robots for the national contest.", "สร้างและเขียนโปรแกรมหุ่นยนต์เพื่อแข่งขันระดับประเทศ"),
    ("Astronomy Club", "ชุมนุมดาราศาสตร์", "Night sky observation and telescope making.", "สังเกตท้องฟ้ายามค่ำคืนและประดิษฐ์กล้องโทรทรรศน์"),
    ("Thai Classical Music", "ชุมนุมดนตรีไทย", "Ranat, khim and the school's piphat ensemble.", "ระนาด ขิม และวงปี่พาทย์ของโรงเรียน"),
    ("Debate Society", "ชุมนุมโต้วาที", "Parliamentary debate in Thai and English.", "การโต้วาทีแบบรัฐสภาทั้งภาษาไทยและภาษาอังกฤษ"),
    ("Photography Club", "ชุมนุมถ่ายภาพ", "Film and digital photography, school events.", "ถ่ายภาพฟิล์มและดิจิทัล งานกิจกรรมของโรงเรียน"),
    ("Chess Club", "ชุมนุมหมากรุก", "Western chess and makruk.", "หมากรุกสากลและหมากรุกไทย"),
    ("Volunteer Service Club for Community Development and Environmental Sustainability", "ชุมนุมจิตอาสาเพื่อการพัฒนาชุมชนและความยั่งยืนของสิ่งแวดล้อมอย่างยั่งยืนตลอดไป", "Weekend volunteering in the community.", "อาสาสมัครช่วยเหลือชุมชนทุกวันเสาร์"),
    ("Computer Programming", "ชุมนุมคอมพิวเตอร์", "Competitive programming and web projects.", "การเขียนโปรแกรมเชิงแข่งขันและโครงการเว็บ"),
    ("Japanese Culture", "ชุมนุมวัฒนธรรมญี่ปุ่น", "Language, calligraphy, 書道 and anime 🎌.", "ภาษา การเขียนพู่กัน และอนิเมะ"),
    (None, "ชุมนุมนาฏศิลป์", None, "รำไทยและการแสดงในงานพิธีของโรงเรียน"),
    (None, "ชุมนุมภาษาไทยวันละคำ", None, "ฝึกใช้ภาษาไทยให้ถูกต้อง"),
    (None, "ชุมนุมพฤกษศาสตร์", None, None),
    ("Football", "ชุมนุมฟุตบอล", "Training three evenings a week.", "ฝึกซ้อมสัปดาห์ละสามวัน"),
    ("Model United Nations", "ชุมนุมสหประชาชาติจำลอง", "MUN conferences in Bangkok and abroad.", "การประชุมสหประชาชาติจำลอง"),
]
COLORS = ["#1e88e5", "#8e24aa", "#43a047", "#f4511e", "#6d4c41", "#00897b", "#fdd835", "#3949ab", "#d81b60", "#c0ca33", "#5e35b1", "#00acc1", "#e53935", "#546e7a"]

TH_FIRST = ["สมชาย", "สมหญิง", "ณัฐวุฒิ", "ปัณณวัฒน์", "กิตติพัฒน์", "ภัทรพล", "ธนกฤต", "ศุภณัฐ", "ชยพล", "พิมพ์ชนก", "ณัฐธิดา", "กัญญาณัฐ", "ปุณยวีร์", "ธัญชนก", "ภูริชญา", "วรินทร์ญา", "ศิริรัตน์", "อภิชญา", "ญาณิศา", "เปรมฤดี"]
EN_FIRST = ["Somchai", "Somying", "Nattawut", "Pannawat", "Kittipat", "Pattarapon", "Thanakrit", "Suppanat", "Chayapol", "Pimchanok", "Nattida", "Kanyanat", "Punyawee", "Thanchanok", "Purichaya", "Warinya", "Sirirat", "Apichaya", "Yanisa", "Premruedee"]
TH_LAST = ["ใจดี", "รักเรียน", "ศรีสุข", "วงศ์สวัสดิ์", "ทองคำ", "แก้วมณี", "สุขสวัสดิ์", "บุญมา", "ประเสริฐวงศ์", "จันทร์เพ็ญ", "พิทักษ์ธรรม", "เลิศวิริยะกุล"]
EN_LAST = ["Jaidee", "Rakrian", "Srisuk", "Wongsawat", "Thongkham", "Kaewmanee", "Suksawat", "Boonma", "Prasertwong", "Chanpen", "Pitaktham", "Lertwiriyakul"]
TH_NICK = ["ต้น", "ฝน", "มิ้นท์", "บีม", "ปอ", "แพร", "เจ", "น้ำ", "ภูมิ", "ไอซ์"]
EN_NICK = ["Ton", "Fon", "Mint", "Beam", "Por", "Prae", "Jay", "Nam", "Poom", "Ice"]

classrooms = [{"id": uid(), "number": n} for n in (401, 402, 403, 501, 502, 503, 504, 601, 602)]
students = []
for i in range(300):
    f = R.randrange(len(TH_FIRST)); l = R.randrange(len(TH_LAST)); n = R.randrange(len(TH_NICK))
    male = f < 9
    room = classrooms[i % len(classrooms)]
    students.append({
        "id": uid(), "student_id": str(50000 + i * 7 + R.randrange(7)), "person_id": uid(), "user_id": uid(),
        "person": {
            "prefix": {"en-US": "Mr." if male else "Miss", "th": "นาย" if male else "นางสาว"},
            "first_name": {"en-US": EN_FIRST[f], "th": TH_FIRST[f]},
            "last_name": {"en-US": EN_LAST[l], "th": TH_LAST[l]},
            "middle_name": None,
            "nickname": {"en-US": EN_NICK[n], "th": TH_NICK[n]},
        },
        "classroom": {"id": room["id"], "number": room["number"]},
        "class_no": i // len(classrooms) + 1,
    })
# Hostile and awkward names: typed by students, shown by us.
students[7]["person"]["first_name"] = {"en-US": "Evil\u001b]0;pwned\u0007\u001b[31mRed", "th": "ชื่อ\u001b]52;c;ZXZpbA==\u0007"}
students[8]["person"]["last_name"] = {"en-US": "\u202eesreveR", "th": "กลับ\u202eด้าน"}
students[9]["person"]["first_name"] = {"en-US": "Maximiliano-Alexander-Bartholomew-Christopherson-Wolfeschlegelsteinhausen", "th": "ศรีสุวรรณวิจิตรเลิศล้ำอำไพพงศ์พัฒนาวิทยาสถิตย์สถาพร"}
students[10]["person"]["first_name"] = {"en-US": None, "th": "กิ๊กฺฺฺ๊๊๊"}
students[11]["person"]["nickname"] = {"en-US": "👩🏽‍💻 Dev", "th": "เดฟ 👍🏿"}
students[12]["person"] = {"prefix": None, "first_name": {"en-US": "王小明", "th": "หวัง"}, "last_name": {"en-US": "Wang", "th": "หวัง"}, "middle_name": None, "nickname": None}

contacts = []
def contact(kind, value, name=None):
    c = {"id": uid(), "created_at": "2025-05-%02dT03:%02d:11.%06dZ" % (R.randrange(1, 28), R.randrange(60), R.randrange(10**6)),
         "name": name, "type": kind, "value": value, "include_students": None, "include_teachers": None, "include_parents": None}
    contacts.append(c)
    return c["id"]

clubs = []
for i, (en, th, den, dth) in enumerate(CLUBS):
    staff = R.sample(range(300), 3)
    members = R.sample(range(300), R.randrange(8, 30))
    cids = [contact("email", f"club{i+1}@school.example.ac.th")]
    if i % 2 == 0:
        cids.append(contact("line", f"@club{i+1}", {"en-US": "LINE group", "th": "กลุ่มไลน์"}))
    if i % 3 == 0:
        cids.append(contact("instagram", f"club_{i+1}_official"))
    if i == 4:
        cids.append(contact("website", "https://example.ac.th/\u001b[2Jphoto"))
    clubs.append({
        "id": uid(), "name": {"en-US": en, "th": th},
        "description": None if (den is None and dth is None) else {"en-US": den, "th": dth},
        "logo_url": f"https://example.ac.th/logos/{i+1}.png" if i % 4 else None,
        "background_color": COLORS[i], "accent_color": COLORS[(i + 5) % len(COLORS)],
        "contact_ids": cids,
        "staff_ids": [students[s]["id"] for s in staff],
        "member_ids": [students[m]["id"] for m in members],
    })

# The demo moderator: a student who staffs four clubs, among them the busiest.
moderator = students[0]
for c in clubs[:4]:
    if moderator["id"] not in c["staff_ids"]:
        c["staff_ids"].append(moderator["id"])

requests = []
base = datetime.datetime(2026, 11, 22, 8, 0, 0)
weights = [30, 25, 20, 18, 10, 10, 8, 8, 8, 6, 6, 5, 5, 5]
for i in range(240):
    club = R.choices(clubs, weights=weights)[0]
    stu = students[R.randrange(300)]
    year = 2026 if R.random() < 0.8 else 2025
    r = R.random()
    status = "pending" if r < 0.8 else ("approved" if r < 0.92 else "declined")
    created = base - datetime.timedelta(minutes=R.randrange(60 * 24 * (400 if year == 2025 else 60)))
    frac = "" if i % 17 == 0 else "." + str(R.randrange(10**6)).zfill(6)
    requests.append({"id": uid(), "created_at": created.strftime("%Y-%m-%dT%H:%M:%S") + frac + "Z",
                     "club_id": club["id"], "student_id": stu["id"], "year": year, "membership_status": status})

users = [
    {"id": uid(), "created_at": "2024-05-16T02:11:09.123Z", "email": "ton.jaidee@student.school.example.ac.th", "role": "student",
     "meta": {"student_id": moderator["id"]}, "is_admin": False, "onboarded": True, "permissions": [],
     "api_key": "mysk_demomod_" + R.randbytes(16).hex(), "label": "moderator"},
    {"id": uid(), "created_at": "2023-04-01T01:00:00Z", "email": "kru.somsri@school.example.ac.th", "role": "teacher",
     "meta": {"teacher_id": uid()}, "is_admin": False, "onboarded": True, "permissions": [],
     "api_key": "mysk_demotea_" + R.randbytes(16).hex(), "label": "teacher"},
    {"id": uid(), "created_at": "2022-01-10T00:00:00.5Z", "email": "admin@school.example.ac.th", "role": "staff",
     "meta": None, "is_admin": True, "onboarded": True, "permissions": ["club.manage", "user.manage"],
     "api_key": "mysk_demoadm_" + R.randbytes(16).hex(), "label": "admin"},
]
users[0]["person_name"] = "Ton"
# A second student on the staff of the moderator's first club (Robotics), so the demo hosts a
# team: two moderators of one queue.
colleague = next(sid for sid in clubs[0]["staff_ids"] if sid != moderator["id"])
users.append({"id": uid(), "created_at": "2025-05-20T03:00:00Z", "email": "por.purichaya@student.school.example.ac.th",
              "role": "student", "meta": {"student_id": colleague}, "is_admin": False, "onboarded": True,
              "permissions": [], "api_key": "mysk_demomo2_" + R.randbytes(16).hex(), "label": "moderator2",
              "person_name": "Por"})
# A requester: a student with requests of their own who staffs no club (api-notes.md, "Who may
# do what": they may delete their own requests, nothing else).
staffing = {sid for c in clubs for sid in c["staff_ids"]}
asker = next(s for s in students if s["id"] == next(r["student_id"] for r in requests if r["student_id"] not in staffing))
users.append({"id": asker["user_id"], "created_at": "2025-06-02T01:30:00Z",
              "email": "somchai.chanpen@student.school.example.ac.th", "role": "student",
              "meta": {"student_id": asker["id"]}, "is_admin": False, "onboarded": True, "permissions": [],
              "api_key": "mysk_demoreq_5d0f2b9c6e7a4138a2c4e8f1b3d6a970", "label": "requester",
              "person_name": "Somchai"})

def dump(name, obj):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as fh:
        json.dump(obj, fh, ensure_ascii=False, indent=1)
        fh.write("\n")

dump("students.json", students)
dump("clubs.json", clubs)
dump("contacts.json", contacts)
dump("requests.json", requests)
dump("users.json", users)
print(len(students), "students,", len(clubs), "clubs,", len(requests), "requests,", len(contacts), "contacts")
